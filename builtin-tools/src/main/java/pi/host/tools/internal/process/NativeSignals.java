package pi.host.tools.internal.process;

/**
 * The process calls Java has no portable form for (ARCHITECTURE.md "Native edges"): signalling a
 * whole process group and making the host a Linux child subreaper, so that descendants which
 * escaped their parent (double fork, setsid) are re-parented to the host and stay reachable.
 * {@link #load()} picks the JNA implementation where it works and a plain-Java one otherwise.
 */
public interface NativeSignals {

    int SIGTERM = 15;
    int SIGKILL = 9;

    /** True when the native (JNA) implementation is in use. */
    boolean isNative();

    /** Signals every process in group {@code pgid}; false when that is not possible here. */
    boolean signalGroup(long pgid, int signal);

    /** The process group of {@code pid}, or -1 when unknown. */
    long processGroup(long pid);

    /** Asks the kernel to re-parent orphaned descendants to this process; false when not possible. */
    boolean becomeSubreaper();

    /** True when this process is a child subreaper. */
    boolean isSubreaper();

    /** Reaps {@code pid} if it is an exited child of this process; never blocks. */
    boolean reap(long pid);

    /** The JNA implementation when JNA and libc load, else the plain-Java one. */
    static NativeSignals load() {
        if (!Boolean.getBoolean("pi.host.process.nojna")) {
            try {
                return JnaSignals.create();
            } catch (LinkageError | RuntimeException e) {
                // no JNA bundle, or no libc to bind: ProcessHandle alone still kills trees it can see
                System.getLogger(NativeSignals.class.getName()).log(System.Logger.Level.INFO,
                        "native process signals unavailable, using the plain-Java fallback: " + e);
            }
        }
        return new JavaSignals();
    }
}
