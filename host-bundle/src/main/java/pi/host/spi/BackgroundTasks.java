package pi.host.spi;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Implemented by the bundle that runs background tasks; the host calls it for the
 * {@code background.*} RPC methods and on session delete and shutdown. Calls must not block for
 * long: stops signal and return.
 */
@ConsumerType
public interface BackgroundTasks {

    /** What {@link #remove} did. */
    enum Removal {
        REMOVED, RUNNING, UNKNOWN
    }

    /** The tasks of one session, oldest first; {@code null} lists every session's. */
    List<TaskInfo> list(String sessionId);

    /** The task's kept output, or empty when there is no such task. */
    Optional<TaskOutput> read(String taskId);

    /** Requests a stop (the whole tree); empty when there is no such task. A terminal task is returned as is. */
    Optional<TaskInfo> stop(String taskId);

    /** Forgets a terminal task; a running one is refused. */
    Removal remove(String taskId);

    /** The session was deleted: stop its running tasks and refuse new ones for it. Returns at once. */
    void sessionDeleted(String sessionId);

    /** The host is stopping: stop every task. Must not wait on output locks. */
    void stopAll();
}
