package pi.host.core.internal.execute;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import pi.host.api.ErrorCode;
import pi.host.core.internal.session.SessionService;
import pi.host.spi.DeclaredPath;

/**
 * Admission (spec §4d): a mutating call takes its session's mutation permit, then every call a global
 * slot, then the path lock of every declared path (shared to read, exclusive to change), all waits
 * interruptible by an abort. What it holds is released when the call ends, however it ends.
 */
final class AdmissionStep implements Step {

    private final SessionService sessions;
    private final AdmissionQueue admission;
    private final pi.host.core.internal.visualization.Visualizations visualizations;

    AdmissionStep(SessionService sessions, AdmissionQueue admission,
            pi.host.core.internal.visualization.Visualizations visualizations) {
        this.sessions = sessions;
        this.admission = admission;
        this.visualizations = visualizations;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        if (e.tool.mutates()) {
            try {
                sessions.ensureScratch(e.session.id());
            } catch (IOException ex) {
                return call.fail(ErrorCode.TOOL_FAILED, "the scratch dir cannot be created: " + ex.getMessage());
            }
            if (e.visualizationTarget) {
                try {
                    visualizations.ensure(e.session.id()); // lazily, on the first write (spec §4b.1)
                } catch (IOException ex) {
                    return call.fail(ErrorCode.TOOL_DENIED, "the visualization dir cannot be used: " + ex.getMessage());
                }
            }
        }
        Thread waiter = Thread.currentThread();
        AdmissionQueue.Ticket ticket;
        try (CallCancellation.AutoCloseableAction wake = call.cancel.onCancel(waiter::interrupt)) {
            ticket = admission.admit(e.session.id(), e.tool.mutates(), locks(call.invocation.paths(), e));
        } catch (InterruptedException ex) {
            return call.cancelled("while queued");
        } finally {
            Thread.interrupted(); // an abort that raced with admission must not leak into the run
        }
        call.ending = call.ending.after(ticket::close); // however the call ends, even before its body does
        call.queued = ticket.waited();
        return call.cancel.isCancelled() ? call.cancelled("while queued") : null;
    }

    /** One lock per distinct location, exclusive when any declared access there changes it. */
    private static List<PathMutex.Lock> locks(List<DeclaredPath> declared, Evaluation e) {
        if (declared.isEmpty()) {
            return List.of();
        }
        List<PathMutex.Lock> locks = new ArrayList<>(declared.size());
        for (int i = 0; i < declared.size(); i++) {
            Path p = e.paths.get(i).absolute();
            boolean exclusive = declared.get(i).access().changes();
            int same = -1;
            for (int j = 0; j < locks.size(); j++) {
                if (locks.get(j).path().equals(p)) {
                    same = j;
                }
            }
            if (same < 0) {
                locks.add(new PathMutex.Lock(p, exclusive));
            } else if (exclusive) {
                locks.set(same, new PathMutex.Lock(p, true));
            }
        }
        return locks;
    }
}
