package pi.host.mcpserver.internal.tools;

import reactor.core.publisher.MonoSink;

/**
 * Hands the front's call results to the SDK one at a time. Completing a handler's {@code Mono} runs the
 * SDK's response path on the completing thread, down to its stdio transport's outbound sink, which
 * takes one emitter at a time and makes a second one spin ({@code busyLooping}, 100 ms) and then drop
 * its message ("Failed to enqueue message": the client waits for that answer until its own timeout).
 * Two of the front's threads get there together whenever the thread that sent the last answer is
 * preempted inside the sink while the client's next call already came back (a loaded machine: the
 * spinner keeps the CPU the holder needs). Under this lock the second thread parks instead of
 * spinning, and the holder finishes. The lock is held only for the hand-over, which never waits for
 * anything (the SDK's writer thread writes the line); elicitation and progress, which wait for the
 * client, do not take it.
 *
 * <p>Stdio only: the SDK's streamable HTTP transport writes each answer to its client's connection in
 * that call and serializes per session itself; a lock across sessions there would make every session
 * wait for the slowest client.
 */
final class SerialAnswers {

    private final Object lock;

    /** @param serial true for the stdio transport (one sink for every answer), false for HTTP */
    SerialAnswers(boolean serial) {
        this.lock = serial ? new Object() : null;
    }

    <T> void success(MonoSink<T> sink, T value) {
        handOver(() -> sink.success(value));
    }

    <T> void error(MonoSink<T> sink, Throwable e) {
        handOver(() -> sink.error(e));
    }

    private void handOver(Runnable completion) {
        if (lock == null) {
            completion.run();
            return;
        }
        synchronized (lock) {
            completion.run();
        }
    }
}
