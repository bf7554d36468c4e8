package pi.host.console.internal;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * The console's settings, as the launcher passes them in framework properties
 * ({@code bin/pi-host console --workspace DIR --permission-mode M --no-color}).
 *
 * @param permissionMode ask, accept-edits or auto; null keeps the session's inherit (the host's default)
 * @param color whether colours are wanted: not with {@code --no-color}, not when {@code NO_COLOR} is set
 *        to anything non-empty (no-color.org); a terminal without colours gets none either way
 * @param interactive whether stdin and stdout are a terminal (else the console reads a script)
 */
public record ConsoleOptions(Path workspace, String permissionMode, boolean color, Path dataDir, boolean interactive) {

    /** Framework property that turns the console on (set by the launcher's {@code console} command). */
    public static final String ENABLED = "pi.host.console";
    public static final String WORKSPACE = "pi.host.console.workspace";
    public static final String PERMISSION_MODE = "pi.host.console.permissionMode";
    public static final String NO_COLOR = "pi.host.console.noColor";
    /** Set by the console before it stops the host: the launcher's exit code. */
    public static final String EXIT_CODE = "pi.host.console.exitCode";

    static ConsoleOptions from(Function<String, String> property, Map<String, String> env, boolean terminal) {
        String workspace = property.apply(WORKSPACE);
        String mode = property.apply(PERMISSION_MODE);
        String noColorEnv = env.get("NO_COLOR");
        boolean color = !"true".equals(property.apply(NO_COLOR)) && (noColorEnv == null || noColorEnv.isEmpty());
        return new ConsoleOptions(Path.of(workspace == null ? System.getProperty("user.dir") : workspace),
                mode == null || mode.isBlank() ? null : mode, color, Path.of(property.apply("pi.host.data")), terminal);
    }
}
