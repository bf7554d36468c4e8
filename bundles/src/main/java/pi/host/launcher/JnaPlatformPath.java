package pi.host.launcher;

import com.sun.jna.Platform;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Gives JNA its platform library path ({@code jna.platform.library.path}) before JNA's
 * {@code NativeLibrary} class initialises, so that it does not compute it. On Linux that computation
 * runs {@code /sbin/ldconfig -p} as a child process (JNA 5.19's static initialiser, skipped when the
 * property is set), and {@link Undumpable} touches {@code NativeLibrary} on the launcher's main
 * thread before the framework exists: the fork, the process classes and the read of its output sat on
 * the start's serial path (stamped, the hardening's median: 47 → 38 ms on Java 25 and 64 → 50 ms on 17 at
 * load ~3, 120 → 66 and 121 → 94 ms at load 7-10; docs/performance-log.md, branch start16).
 *
 * <p>Leaving ldconfig's directories out loses nothing the host loads. JNA first {@code dlopen}s a
 * library by its name, and {@code dlopen} searches {@code ld.so.cache} (ldconfig's list) itself; the
 * platform path is only JNA's fallback after that fails, for a versioned file whose unversioned name
 * does not exist. And the host's every JNA library is libc ({@code "c"} and {@code libc.so.6}), which
 * JNA binds to the process's own symbol table without any search. The directories given are JNA's own
 * defaults for Linux (the multiarch, {@code lib64} and plain {@code lib} folders, those that exist), the
 * ones it would put first; a user's value, set with {@code -D}, is left alone.
 */
final class JnaPlatformPath {

    static final String PROPERTY = "jna.platform.library.path";

    private JnaPlatformPath() {
    }

    /** Sets the property on Linux unless the user set it; elsewhere JNA forks nothing for it. */
    static void presetUnlessSet() {
        // Linux as JNA and Undumpable decide it (Platform reads properties; it loads no native code)
        if (System.getProperty(PROPERTY) != null || !Platform.isLinux()) {
            return;
        }
        String path = standardDirs(System.getProperty("os.arch", ""), Files::isDirectory);
        if (!path.isEmpty()) {
            System.setProperty(PROPERTY, path);
        }
        // none of them exists: JNA computes it as before (an odd system; correctness over the fork)
    }

    /**
     * The standard library folders of a Linux system for this JVM architecture that {@code isDir}
     * accepts, in JNA's order, joined with the path separator; empty when none is accepted.
     */
    static String standardDirs(String osArch, Predicate<Path> isDir) {
        List<String> candidates = new ArrayList<>();
        String triplet = multiarchTriplet(osArch);
        if (triplet != null) {
            candidates.add("/usr/lib/" + triplet);
            candidates.add("/lib/" + triplet);
        }
        if (osArch.contains("64")) {
            candidates.add("/usr/lib64");
            candidates.add("/lib64");
        }
        candidates.add("/usr/lib");
        candidates.add("/lib");
        List<String> present = new ArrayList<>();
        for (String dir : candidates) {
            if (isDir.test(Path.of(dir))) {
                present.add(dir);
            }
        }
        return String.join(File.pathSeparator, present);
    }

    /** Debian's multiarch folder name for the common JVM architectures; null for the others. */
    private static String multiarchTriplet(String osArch) {
        return switch (osArch) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64" -> "aarch64-linux-gnu";
            case "x86", "i386", "i686" -> "i386-linux-gnu";
            case "ppc64le" -> "powerpc64le-linux-gnu";
            case "s390x" -> "s390x-linux-gnu";
            case "riscv64" -> "riscv64-linux-gnu";
            default -> null;
        };
    }
}
