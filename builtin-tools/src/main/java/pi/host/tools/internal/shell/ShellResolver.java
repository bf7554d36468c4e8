package pi.host.tools.internal.shell;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the bash executable (spec §5): {@code PI_DESKTOP_BASH}, then the well-known locations, then
 * PATH. A failure lists every place that was looked at, for the SHELL_NOT_FOUND guidance.
 */
final class ShellResolver {

    static final String OVERRIDE = "PI_DESKTOP_BASH";
    static final List<String> WELL_KNOWN = List.of("/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash",
            "/opt/homebrew/bin/bash", "/home/linuxbrew/.linuxbrew/bin/bash");

    /** The outcome: a shell, or where it was looked for. */
    record Resolution(Optional<Path> shell, List<String> searched) {
    }

    private ShellResolver() {
    }

    static Resolution resolve(Map<String, String> env) {
        return resolve(env, WELL_KNOWN);
    }

    static Resolution resolve(Map<String, String> env, List<String> wellKnown) {
        List<String> searched = new ArrayList<>();
        String override = env.get(OVERRIDE);
        if (override != null && !override.isBlank()) {
            searched.add(OVERRIDE + "=" + override);
            if (executable(Path.of(override))) {
                return new Resolution(Optional.of(Path.of(override)), searched);
            }
        }
        for (String candidate : wellKnown) {
            searched.add(candidate);
            if (executable(Path.of(candidate))) {
                return new Resolution(Optional.of(Path.of(candidate)), searched);
            }
        }
        String path = env.getOrDefault("PATH", "");
        searched.add("PATH (" + path + ")");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "bash");
                if (executable(candidate)) {
                    return new Resolution(Optional.of(candidate), searched);
                }
            }
        }
        return new Resolution(Optional.empty(), searched);
    }

    /** Install guidance naming where the host looked. */
    static String guidance(List<String> searched) {
        return "bash was not found. Looked at: " + String.join(", ", searched)
                + ". Install bash (for example with your system's package manager, or Homebrew on macOS)"
                + " or set " + OVERRIDE + " to the path of a bash executable, then restart the host.";
    }

    private static boolean executable(Path p) {
        return Files.isRegularFile(p) && Files.isExecutable(p);
    }
}
