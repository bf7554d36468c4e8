package pi.host.tools.internal.background;

import pi.host.spi.TaskInfo;
import pi.host.spi.TaskOutput;
import pi.host.spi.TaskState;
import pi.host.tools.internal.process.OutputBuffer;
import pi.host.tools.internal.process.ProcessSupervisor;
import pi.host.tools.internal.process.StreamPump;

/** One background command: its process tree, the tails of its two streams and its state. */
final class BackgroundTask {

    final String id;
    final String sessionId;
    final String command;
    final String description;
    final long startedAt = System.currentTimeMillis();
    final ProcessSupervisor.Started started;
    final OutputBuffer stdout;
    final OutputBuffer stderr;
    StreamPump stdoutPump;
    StreamPump stderrPump;

    private volatile TaskState state = TaskState.RUNNING;
    private volatile Integer exitCode;
    private volatile boolean stopRequested;
    private volatile Long endedAt;
    private volatile long killedAt;

    BackgroundTask(String id, String sessionId, String command, String description, ProcessSupervisor.Started started,
            int tailChars) {
        this.id = id;
        this.sessionId = sessionId;
        this.command = command;
        this.description = description;
        this.started = started;
        this.stdout = new OutputBuffer(0, tailChars);
        this.stderr = new OutputBuffer(0, tailChars);
    }

    TaskState state() {
        return state;
    }

    boolean running() {
        return state == TaskState.RUNNING;
    }

    /** Marks a stop; true the first time. */
    boolean requestStop() {
        if (stopRequested || !running()) {
            return false;
        }
        stopRequested = true;
        return true;
    }

    boolean stopRequested() {
        return stopRequested;
    }

    void killed() {
        killedAt = System.nanoTime();
    }

    long killedAt() {
        return killedAt;
    }

    /** Publishes the terminal state; called once, after both streams were drained. */
    void settle(Integer exit) {
        exitCode = exit;
        endedAt = System.currentTimeMillis();
        state = stopRequested ? TaskState.STOPPED : exit != null && exit == 0 ? TaskState.EXITED : TaskState.FAILED;
    }

    TaskInfo info() {
        return new TaskInfo(id, sessionId, command, description, state, exitCode, stopRequested, startedAt, endedAt);
    }

    TaskOutput output() {
        TaskInfo info = info(); // state first: output read after a terminal state is complete
        return new TaskOutput(info, stdout.text(), stderr.text(), stdout.cut(), stderr.cut());
    }
}
