package pi.host.launcher;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/**
 * Makes this process undumpable ({@code prctl(PR_SET_DUMPABLE, 0)}, Linux) and reads the flag back.
 * The kernel then treats the host like a set-uid program: {@code /proc/<pid>/fd}, {@code fdinfo},
 * {@code mem}, {@code environ}, {@code maps}, {@code cwd} and {@code root} become root's, and
 * {@code ptrace}, {@code pidfd_getfd} and {@code process_vm_readv} are refused, to every process
 * of the same user. The host's children are such processes: without this, any command it runs can
 * open {@code /proc/<host>/fd/0} and write requests into the RPC channel. The flag goes with the
 * process image and is reset by {@code execve}, so the children themselves stay dumpable.
 */
final class Undumpable {

    private static final int PR_GET_DUMPABLE = 3;
    private static final int PR_SET_DUMPABLE = 4;

    private Undumpable() {
    }

    /** True where the flag exists (Linux): there a failure to set it is a reason not to serve. */
    static boolean supported() {
        return Platform.isLinux();
    }

    /** Null when this process is undumpable now; otherwise why it is not. */
    static String apply() {
        if (!supported()) {
            return "prctl(PR_SET_DUMPABLE) exists only on Linux (" + System.getProperty("os.name") + ")";
        }
        try {
            // the process's own symbol table (libc is in it): no library search, the cheapest binding JNA has
            Function prctl = NativeLibrary.getProcess().getFunction("prctl");
            int set = prctl.invokeInt(new Object[] {PR_SET_DUMPABLE, 0L, 0L, 0L, 0L});
            int now = prctl.invokeInt(new Object[] {PR_GET_DUMPABLE, 0L, 0L, 0L, 0L});
            if (set != 0 || now != 0) {
                return "prctl(PR_SET_DUMPABLE, 0) answered " + set + " and PR_GET_DUMPABLE now answers " + now;
            }
            return null;
        } catch (LinkageError | RuntimeException e) {
            // JNA missing from the distribution, its native part not loadable (noexec temp folder), no prctl
            return "prctl through JNA failed: " + e;
        }
    }
}
