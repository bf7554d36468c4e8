package pi.host.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a host must be before it serves anyone: closed to the processes it will start, which run as
 * the same user (docs/security.md, "Tool processes and the RPC channel"). It is undumpable
 * ({@link Undumpable}) and runs with the JVM options that shut the attach listener, the shared
 * perf-data file and thread dumps on stdout ({@link JvmOptions}). The launcher applies this first,
 * before the framework exists: nothing of the host runs, nothing reads stdin and no child is
 * started before it. A host that cannot be made so does not start (fail closed); on a system
 * without {@code prctl} (not Linux) it starts with a warning, since there is no {@code /proc} to
 * close there.
 */
final class HostHardening {

    /** Where JNA and sqlite-jdbc unpack their native libraries, under the owner-only data dir. */
    static final String NATIVE_DIR = "native";

    private HostHardening() {
    }

    /** Applies it; false (after saying why on {@code err}) when the host must not serve. */
    static boolean apply(Path dataDir, PrintStream err) {
        AtomicReference<List<String>> missing = new AtomicReference<>();
        // the options check (the management beans, ~20 ms) runs beside JNA's first load (~60 ms)
        Thread check = new Thread(() -> missing.set(JvmOptions.missing()), "pi-host-jvm-options");
        check.start();
        nativeTempDirs(dataDir);
        JnaPlatformPath.presetUnlessSet(); // before JNA's NativeLibrary initialises: spares it ldconfig's fork
        String dumpable = Undumpable.apply();
        try {
            check.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("pi-host: interrupted while checking the JVM options; not serving");
            return false;
        }
        if (!missing.get().isEmpty()) {
            err.println("pi-host: refusing to serve: the JVM runs without " + String.join(" ", missing.get())
                    + ", so the processes the host starts could reach into it. Start it with bin/pi-host, or pass"
                    + " @" + BundleSet.assemblyDir().resolve("jvm.options") + " to java.");
            return false;
        }
        if (dumpable != null) {
            if (Undumpable.supported()) {
                err.println("pi-host: refusing to serve: the host could not be made undumpable (" + dumpable
                        + "); every command it runs could read and write its RPC channel through /proc.");
                return false;
            }
            err.println("pi-host: warning: " + dumpable + "; the host is not shielded from the processes it starts.");
        }
        return true;
    }

    /**
     * Points JNA's and sqlite-jdbc's unpacking at {@code <data_dir>/native} unless the user chose:
     * a folder the host's user owns and can execute from, where the default temp folder may be
     * mounted noexec and a home folder may be missing (a service user's is often {@code /nonexistent}).
     */
    private static void nativeTempDirs(Path dataDir) {
        Path dir = dataDir.resolve(NATIVE_DIR);
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException | UnsupportedOperationException e) {
            return; // the libraries' own defaults then; the data dir's creation reports a real problem
        }
        if (System.getProperty("jna.tmpdir") == null) {
            System.setProperty("jna.tmpdir", dir.toString());
        }
        if (System.getProperty("org.sqlite.tmpdir") == null) {
            System.setProperty("org.sqlite.tmpdir", dir.toString());
        }
    }
}
