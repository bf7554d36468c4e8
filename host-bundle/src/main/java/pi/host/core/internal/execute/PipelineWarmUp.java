package pi.host.core.internal.execute;

import java.nio.file.Path;
import java.util.List;
import pi.host.core.internal.policy.ModeMatrix;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.spi.ToolKind;

/**
 * The first use of the call path's pure parts, on throw-away instances, for the warm-up right after the
 * host's first answer (FirstAnswer#warmUpAtOnce): the mode matrix's table and admission's queue and path
 * lock. A session's first call otherwise loads, links and initialises them on its own thread
 * (docs/performance-log.md, round {@code grep11}). Nothing here touches a session, a file or another call's
 * state: a call that comes first does the same work itself, as before.
 */
final class PipelineWarmUp {

    private PipelineWarmUp() {
    }

    /** Runs once; returns whether the throw-away admission was granted without waiting (it always is). */
    static boolean run() {
        ModeMatrix.admit(OperatingMode.parse("agent").orElseThrow(), ToolKind.READ, false);
        AdmissionQueue queue = new AdmissionQueue(1);
        try (AdmissionQueue.Ticket ticket = queue.admit("warm-up", true,
                List.of(new PathMutex.Lock(Path.of("/"), false)))) {
            return !ticket.waited();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
