package pi.host.spi;

/**
 * A snapshot of one background task.
 *
 * @param taskId      the {@code backgroundTaskId} returned by the Bash call
 * @param sessionId   the session that started it; fixed at spawn
 * @param command     the command line as given
 * @param description the call's description, or null
 * @param state       where it is
 * @param exitCode    the shell's exit status once it exited, else null
 * @param stopRequested true once a stop was sent (the task stays running until it settled)
 * @param startedAt   epoch millis
 * @param endedAt     epoch millis once terminal, else null
 */
public record TaskInfo(String taskId, String sessionId, String command, String description, TaskState state,
        Integer exitCode, boolean stopRequested, long startedAt, Long endedAt) {
}
