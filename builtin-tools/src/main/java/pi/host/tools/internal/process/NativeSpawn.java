package pi.host.tools.internal.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Starts a command as the leader of a new process group, or of a new session, with one exec:
 * glibc's {@code posix_spawn} with {@code POSIX_SPAWN_SETPGROUP} or {@code POSIX_SPAWN_SETSID},
 * called through JNA. {@link ProcessBuilder} takes three execs for a new session (the JDK's
 * {@code jspawnhelper}, then {@code setsid}, then the shell), about two milliseconds a command;
 * Java itself can start a process in neither. The child gets default signal handling, an empty
 * signal mask, stdin from a file, stdout and stderr as pipes or files, the builder's directory and
 * environment, and no other descriptor of the host.
 *
 * <p>Linux with glibc 2.34 or later ({@code posix_spawn_file_actions_addclosefrom_np}); elsewhere
 * {@link #load()} is empty and {@link ProcessSupervisor} falls back to {@code setsid} through
 * {@link ProcessBuilder}.
 */
final class NativeSpawn {

    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_CREAT = 0100;
    private static final int O_TRUNC = 01000;
    private static final int O_APPEND = 02000;
    private static final int O_CLOEXEC = 02000000;
    private static final short POSIX_SPAWN_SETPGROUP = 0x02;
    private static final short POSIX_SPAWN_SETSIGDEF = 0x04;
    private static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    private static final short POSIX_SPAWN_SETSID = 0x80;
    /** Generous upper bounds of glibc's opaque structs (80, 336 and 128 bytes on 64-bit Linux). */
    private static final int FILE_ACTIONS_BYTES = 256;
    private static final int ATTR_BYTES = 1024;
    private static final int SIGSET_BYTES = 256;

    /** libc, bound directly (no proxy per call: a 1 GiB drain makes sixteen thousand reads). */
    static final class LibC {
        static {
            Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        private LibC() {
        }

        static native int pipe2(int[] fds, int flags) throws LastErrorException;

        static native int posix_spawn_file_actions_init(Pointer actions);

        static native int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newfd);

        static native int posix_spawn_file_actions_addopen(Pointer actions, int fd, Pointer path, int flags, int mode);

        static native int posix_spawn_file_actions_addchdir_np(Pointer actions, Pointer path);

        static native int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from);

        static native int posix_spawn_file_actions_destroy(Pointer actions);

        static native int posix_spawnattr_init(Pointer attr);

        static native int posix_spawnattr_setflags(Pointer attr, short flags);

        static native int posix_spawnattr_setsigmask(Pointer attr, Pointer set);

        static native int posix_spawnattr_setsigdefault(Pointer attr, Pointer set);

        static native int posix_spawnattr_destroy(Pointer attr);

        static native int sigemptyset(Pointer set);

        static native int sigfillset(Pointer set);

        static native int posix_spawn(int[] pid, Pointer path, Pointer actions, Pointer attr, Pointer argv, Pointer envp);

        static native int posix_spawnp(int[] pid, Pointer file, Pointer actions, Pointer attr, Pointer argv,
                Pointer envp);

        static native int close(int fd);

        static native int waitid(int idtype, int id, Pointer info, int options) throws LastErrorException;

        static native int waitpid(int pid, int[] status, int options) throws LastErrorException;

        static native int kill(int pid, int sig);

        static native String strerror(int errno);
    }

    /** The charset the JDK uses for a process's arguments and environment. */
    private final Charset charset;
    private final CommandThreads threads;
    /** Started here and not yet reaped: the subreaper's sweep must leave them to their waiter. */
    private final Set<Long> unreaped = ConcurrentHashMap.newKeySet();

    private NativeSpawn(CommandThreads threads) {
        this.threads = threads;
        String jnu = System.getProperty("sun.jnu.encoding");
        this.charset = jnu != null && Charset.isSupported(jnu) ? Charset.forName(jnu) : Charset.defaultCharset();
    }

    /**
     * The native spawner where this platform has it, else empty. Throws {@link LinkageError} when
     * JNA is missing: the caller falls back then.
     */
    static Optional<NativeSpawn> load(CommandThreads threads) {
        if (!Platform.isLinux()) {
            return Optional.empty();
        }
        try {
            NativeLibrary c = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
            c.getFunction("posix_spawn_file_actions_addclosefrom_np"); // glibc 2.34; the newest call used
            c.getFunction("posix_spawn_file_actions_addchdir_np");
            LibC.close(-1); // binds the class now: a failure shows here, not in the middle of a spawn
            return Optional.of(new NativeSpawn(threads));
        } catch (UnsatisfiedLinkError e) {
            return Optional.empty();
        }
    }

    /** True when {@link #start} can honour the builder's redirects (stdin from a file, no merged stderr). */
    static boolean supports(ProcessBuilder builder) {
        return builder.redirectInput().type() == ProcessBuilder.Redirect.Type.READ && !builder.redirectErrorStream()
                && output(builder.redirectOutput()) && output(builder.redirectError());
    }

    private static boolean output(ProcessBuilder.Redirect r) {
        ProcessBuilder.Redirect.Type t = r.type();
        return t == ProcessBuilder.Redirect.Type.PIPE || t == ProcessBuilder.Redirect.Type.WRITE
                || t == ProcessBuilder.Redirect.Type.APPEND;
    }

    /** True while {@code pid} was started here and its waiter has not reaped it. */
    boolean owns(long pid) {
        return unreaped.contains(pid);
    }

    /**
     * Starts {@code argv} as the builder says (see {@link #supports}); the child leads a new process
     * group (its pid is the group id), and a new session of its own when {@code newSession}.
     */
    Process start(ProcessBuilder builder, List<String> argv, boolean newSession) throws IOException {
        File dir = builder.directory();
        int[] out = pipeFor(builder.redirectOutput());
        int[] err;
        try {
            err = pipeFor(builder.redirectError());
        } catch (IOException e) {
            closeAll(out);
            throw e;
        }
        byte[] program = bytes(argv.get(0));
        byte[] stdin = bytes(builder.redirectInput().file().getPath());
        byte[] stdoutFile = out == null ? bytes(builder.redirectOutput().file().getPath()) : null;
        byte[] stderrFile = err == null ? bytes(builder.redirectError().file().getPath()) : null;
        byte[] cwd = dir == null ? null : bytes(dir.getPath());
        List<byte[]> args = new ArrayList<>(argv.size());
        argv.forEach(a -> args.add(bytes(a)));
        List<byte[]> env = new ArrayList<>(builder.environment().size());
        builder.environment().forEach((k, v) -> env.add(bytes(k + "=" + v)));
        List<byte[]> strings = new ArrayList<>(args);
        strings.addAll(env);
        for (byte[] one : new byte[][] {program, stdin, stdoutFile, stderrFile, cwd}) {
            if (one != null) {
                strings.add(one);
            }
        }
        int pid;
        try (SpawnMemory mem = new SpawnMemory(FILE_ACTIONS_BYTES + ATTR_BYTES + 2 * SIGSET_BYTES, strings,
                args.size() + 1L + env.size() + 1L)) {
            Pointer actions = mem.struct(FILE_ACTIONS_BYTES);
            Pointer attr = mem.struct(ATTR_BYTES);
            Pointer empty = mem.struct(SIGSET_BYTES);
            Pointer all = mem.struct(SIGSET_BYTES);
            LibC.posix_spawn_file_actions_init(actions);
            LibC.posix_spawnattr_init(attr);
            try {
                check(LibC.posix_spawn_file_actions_addopen(actions, 0, mem.string(stdin), O_RDONLY, 0), "stdin");
                redirect(actions, 1, builder.redirectOutput(), out, stdoutFile == null ? null : mem.string(stdoutFile));
                redirect(actions, 2, builder.redirectError(), err, stderrFile == null ? null : mem.string(stderrFile));
                if (cwd != null) {
                    check(LibC.posix_spawn_file_actions_addchdir_np(actions, mem.string(cwd)), "chdir");
                }
                check(LibC.posix_spawn_file_actions_addclosefrom_np(actions, 3), "closefrom");
                LibC.sigemptyset(empty);
                LibC.sigfillset(all);
                LibC.posix_spawnattr_setsigmask(attr, empty);
                LibC.posix_spawnattr_setsigdefault(attr, all);
                // SETPGROUP with the attribute's initial pgroup 0: a new group led by the child
                LibC.posix_spawnattr_setflags(attr, (short) ((newSession ? POSIX_SPAWN_SETSID : POSIX_SPAWN_SETPGROUP)
                        | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
                int[] child = new int[1];
                Pointer path = mem.string(program);
                Pointer argvp = mem.strings(args);
                Pointer envp = mem.strings(env);
                // a bare name is looked up on the host's PATH, as ProcessBuilder does
                int rc = argv.get(0).contains("/") ? LibC.posix_spawn(child, path, actions, attr, argvp, envp)
                        : LibC.posix_spawnp(child, path, actions, attr, argvp, envp);
                if (rc != 0) {
                    throw new IOException("Cannot run program \"" + argv.get(0) + "\""
                            + (dir == null ? "" : " (in directory \"" + dir + "\")") + ": error=" + rc + ", "
                            + LibC.strerror(rc));
                }
                pid = child[0];
            } finally {
                LibC.posix_spawn_file_actions_destroy(actions);
                LibC.posix_spawnattr_destroy(attr);
                closeWriteEnds(out, err); // the child has its copies
            }
        } catch (IOException | RuntimeException e) {
            closeAll(out);
            closeAll(err);
            throw e;
        }
        unreaped.add((long) pid);
        SpawnedProcess process = new SpawnedProcess(pid, stream(out), stream(err));
        threads.execute("pi-exit-" + pid, () -> awaitExit(process));
        return process;
    }

    /** Waits for the exit without reaping, then marks it and reaps under the process's lock (no kill after reap). */
    private void awaitExit(SpawnedProcess process) {
        int pid = (int) process.pid();
        try (Memory info = new Memory(128)) {
            while (true) {
                try {
                    LibC.waitid(1 /* P_PID */, pid, info, 4 /* WEXITED */ | 0x01000000 /* WNOWAIT */);
                    break;
                } catch (LastErrorException e) {
                    if (e.getErrorCode() != 4 /* EINTR */) {
                        break; // ECHILD: reaped elsewhere; the exit code is lost
                    }
                }
            }
        }
        int[] status = {-1};
        process.exited(() -> {
            try {
                return LibC.waitpid(pid, status, 1 /* WNOHANG */) == pid ? decode(status[0]) : -1;
            } catch (LastErrorException e) {
                return -1;
            } finally {
                unreaped.remove((long) pid);
            }
        });
    }

    /** The shell convention the JDK follows too: the exit status, or 128 plus the signal that ended it. */
    static int decode(int status) {
        int signal = status & 0x7f;
        return signal == 0 ? (status >> 8) & 0xff : 0x80 + signal;
    }

    private byte[] bytes(String s) {
        return s.getBytes(charset);
    }

    private static void redirect(Pointer actions, int fd, ProcessBuilder.Redirect r, int[] pipe, Pointer file)
            throws IOException {
        if (pipe != null) {
            check(LibC.posix_spawn_file_actions_adddup2(actions, pipe[1], fd), "dup2");
        } else {
            int flags = O_WRONLY | O_CREAT | (r.type() == ProcessBuilder.Redirect.Type.APPEND ? O_APPEND : O_TRUNC);
            check(LibC.posix_spawn_file_actions_addopen(actions, fd, file, flags, 0666), "open " + r.file());
        }
    }

    private static int[] pipeFor(ProcessBuilder.Redirect r) throws IOException {
        if (r.type() != ProcessBuilder.Redirect.Type.PIPE) {
            return null;
        }
        int[] fds = new int[2];
        try {
            LibC.pipe2(fds, O_CLOEXEC); // close-on-exec: no other child inherits either end
        } catch (LastErrorException e) {
            throw new IOException("pipe2 failed: " + LibC.strerror(e.getErrorCode()), e);
        }
        return fds;
    }

    private static InputStream stream(int[] pipe) {
        return pipe == null ? InputStream.nullInputStream() : new PipeInputStream(pipe[0]);
    }

    private static void check(int rc, String what) throws IOException {
        if (rc != 0) {
            throw new IOException("posix_spawn " + what + ": " + LibC.strerror(rc));
        }
    }

    private static void closeWriteEnds(int[] out, int[] err) {
        for (int[] p : new int[][] {out, err}) {
            if (p != null && p[1] >= 0) {
                LibC.close(p[1]);
                p[1] = -1;
            }
        }
    }

    private static void closeAll(int[] pipe) {
        if (pipe != null) {
            for (int i = 0; i < 2; i++) {
                if (pipe[i] >= 0) {
                    LibC.close(pipe[i]);
                    pipe[i] = -1;
                }
            }
        }
    }
}
