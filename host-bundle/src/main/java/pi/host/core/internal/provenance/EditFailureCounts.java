package pi.host.core.internal.provenance;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ToolCall;
import pi.host.core.internal.session.SessionListener;
import pi.host.core.internal.session.SessionService;
import pi.host.spi.EditGuard;
import pi.host.spi.RecoveryScope;

/**
 * Counts failed Edits per session, recovery scope (turn or delegate run) and path. Counts of
 * ended turns are never read again; they go with the session.
 */
@Component(service = {EditGuard.class})
public final class EditFailureCounts implements EditGuard, SessionListener {

    // registered with the session service on activation (a DS whiteboard of listeners would be a cycle)
    @Reference
    private SessionService sessionService;

    @Activate
    void activate() {
        sessionService.addListener(this);
    }

    @Deactivate
    void deactivate() {
        sessionService.removeListener(this);
    }


    private static final class Count {
        int counted;
        boolean unseenGraceUsed;
    }

    private final Map<String, Map<String, Count>> sessions = new ConcurrentHashMap<>();

    @Override
    public int failures(ToolCall call, Path file) {
        Map<String, Count> counts = sessions.get(call.sessionId());
        Count c = counts == null ? null : counts.get(key(call, file));
        if (c == null) {
            return 0;
        }
        synchronized (c) {
            return c.counted;
        }
    }

    @Override
    public int fail(ToolCall call, Path file, boolean completeUnseenReveal) {
        Count c = sessions.computeIfAbsent(call.sessionId(), s -> new ConcurrentHashMap<>())
                .computeIfAbsent(key(call, file), k -> new Count());
        synchronized (c) {
            if (completeUnseenReveal && !c.unseenGraceUsed) {
                c.unseenGraceUsed = true;
                return c.counted;
            }
            return ++c.counted;
        }
    }

    private static String key(ToolCall call, Path file) {
        return RecoveryScope.of(call) + "\u0000" + file.toAbsolutePath().normalize();
    }

    @Override
    public void sessionDeleted(String sessionId) {
        sessions.remove(sessionId);
    }
}
