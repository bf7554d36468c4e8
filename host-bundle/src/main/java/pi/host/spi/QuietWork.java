package pi.host.spi;

/**
 * Background work that a later tool call may need but no call needs now (the probe of the user's login shell
 * for its PATH, say): it runs once the host's tool calls pause, so it never takes the CPU from calls under way.
 * On two cores a login shell's start (a few dozen processes with a version manager's init) fell inside a new
 * session's first 200 calls (docs/performance-log.md, "The login-PATH probe waits for a pause"). A call that needs
 * the work before the pause does it itself. Implemented by the host.
 */
public interface QuietWork {

    /**
     * Runs {@code work} once, on the host's thread for such work (one piece after the other, in the order
     * given), after the host's first answer, as soon as no tool call has run for a moment (a fraction of a
     * second: less than a model takes to ask for its next call); never once the host is stopping. Never waits
     * for it; a failure of the work is its own (it is best effort).
     */
    void whenQuiet(Runnable work);
}
