package pi.host.spi;

import java.util.Locale;

/** Where a background task is; every state but {@link #RUNNING} is terminal. */
public enum TaskState {
    /** The process tree may still run (also after a stop was requested, until it settled). */
    RUNNING,
    /** The shell exited with status 0. */
    EXITED,
    /** The shell exited non-zero, was killed by a signal it did not get from us, or could not start. */
    FAILED,
    /** Stopped on request, on session delete or on host shutdown. */
    STOPPED;

    public boolean terminal() {
        return this != RUNNING;
    }

    /** The lower-case word used on the wire. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
