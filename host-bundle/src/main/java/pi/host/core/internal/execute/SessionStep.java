package pi.host.core.internal.execute;

import pi.host.api.ErrorCode;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;

/** The call's session from its persisted record (spec §4b): a storage error fails the call, never a fallback. */
final class SessionStep implements Step {

    private final SessionService sessions;

    SessionStep(SessionService sessions) {
        this.sessions = sessions;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        SessionRecord session;
        try {
            session = sessions.find(call.request.sessionId()).orElse(null);
        } catch (StorageException ex) {
            return call.fail(ErrorCode.STORAGE_ERROR, "the session store cannot be read: " + ex.getMessage());
        }
        if (session == null) {
            return call.fail(ErrorCode.SESSION_NOT_FOUND, "no session " + call.request.sessionId());
        }
        e.session = session;
        return null;
    }
}
