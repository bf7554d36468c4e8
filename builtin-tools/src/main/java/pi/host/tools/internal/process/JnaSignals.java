package pi.host.tools.internal.process;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/** libc through JNA: {@code kill(-pgid)}, {@code getpgid}, {@code prctl(PR_SET_CHILD_SUBREAPER)}, {@code waitpid}. */
final class JnaSignals implements NativeSignals {

    private static final int PR_SET_CHILD_SUBREAPER = 36;
    private static final int PR_GET_CHILD_SUBREAPER = 37;
    private static final int WNOHANG = 1;

    /** The libc calls used; prctl's variadic tail is passed as longs, as the Linux ABIs allow. */
    interface LibC extends Library {
        int kill(int pid, int sig);

        int getpgid(int pid);

        int prctl(int option, long arg2, long arg3, long arg4, long arg5);

        int prctl(int option, int[] arg2, long arg3, long arg4, long arg5);

        int waitpid(int pid, int[] status, int options);
    }

    private final LibC libc;

    private JnaSignals(LibC libc) {
        this.libc = libc;
    }

    static JnaSignals create() {
        if (Platform.isWindows()) {
            throw new UnsupportedOperationException("no POSIX signals on Windows");
        }
        LibC libc = Native.load("c", LibC.class);
        libc.getpgid(0); // bind now: a broken libc fails here, not in the middle of a kill
        return new JnaSignals(libc);
    }

    @Override
    public boolean isNative() {
        return true;
    }

    @Override
    public boolean signalGroup(long pgid, int signal) {
        // never 0 or 1, and never the host's own group: kill(-1) or kill(-own) would hit the host itself
        if (pgid <= 1 || pgid == processGroup(ProcessHandle.current().pid())) {
            return false;
        }
        return libc.kill((int) -pgid, signal) == 0;
    }

    @Override
    public long processGroup(long pid) {
        int g = libc.getpgid((int) pid);
        return g < 0 ? -1 : g;
    }

    @Override
    public boolean becomeSubreaper() {
        return Platform.isLinux() && libc.prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0;
    }

    @Override
    public boolean isSubreaper() {
        if (!Platform.isLinux()) {
            return false;
        }
        int[] flag = new int[1];
        return libc.prctl(PR_GET_CHILD_SUBREAPER, flag, 0L, 0L, 0L) == 0 && flag[0] != 0;
    }

    @Override
    public boolean reap(long pid) {
        return libc.waitpid((int) pid, new int[1], WNOHANG) == pid;
    }
}
