package pi.host.launcher;

import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --permission-mode}, shared by the commands that open a session ({@code console}, {@code mcp}). */
final class PermissionModeOption {

    private static final Set<String> MODES = Set.of("ask", "accept-edits", "auto");

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private String mode;

    @Option(names = "--permission-mode", paramLabel = "MODE",
            description = "ask, accept-edits or auto for the session (default: the host's default mode setting,"
                    + " ask unless changed).")
    void set(String value) {
        if (!MODES.contains(value)) {
            throw new CommandLine.ParameterException(command.commandLine(),
                    "--permission-mode must be ask, accept-edits or auto, not '" + value + "'");
        }
        mode = value;
    }

    /** The mode given, or null for the host's default. */
    String mode() {
        return mode;
    }
}
