package pi.host.launcher;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code pi-host console}: a person drives the host from a terminal (the bundle {@code pi.host.console},
 * active only with {@code pi.host.console=true}). In this mode the console owns the terminal: file
 * descriptors 0 and 1 are its (there is no RPC on stdio), and everything the host and its bundles
 * would print on System.out or System.err goes to {@code <data_dir>/console.log} instead, so that
 * no log line lands in the middle of a prompt or a permission card. If the host does not start, that
 * log is copied to stderr.
 */
@Command(name = "console", mixinStandardHelpOptions = true,
        description = {"Drive the host from a terminal: type tool calls (Read path=README.md), answer permission"
            + " cards with one key (o once, s session, d or Enter deny), /help for the commands.",
            "When stdin is not a terminal it reads the same lines from stdin and prints plain text."})
final class ConsoleCommand implements Callable<Integer> {

    @ParentCommand
    Main parent;

    @Spec
    CommandSpec spec;

    @Option(names = "--workspace", paramLabel = "DIR",
            description = "The folder the session works in (default: the current folder).")
    Path workspace;

    @Mixin
    PermissionModeOption permissionMode;

    @Option(names = "--no-color", description = "No colours (so does a non-empty NO_COLOR).")
    boolean noColor;

    @Override
    public Integer call() throws Exception {
        Path folder = workspace == null ? Path.of("") : workspace;
        if (!Files.isDirectory(folder)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--workspace must be an existing folder: " + folder.toAbsolutePath());
        }
        return run(parent.dataDir, folder, permissionMode.mode(), noColor);
    }

    /** Runs the console until the person leaves; also what {@code pi-host} alone on a terminal does. */
    static int run(Path dataDirOption, Path workspace, String permissionMode, boolean noColor) throws Exception {
        if (System.getenv(TerminalSession.CHILD) == null && TerminalSession.stdinIsTerminal()
                && TerminalSession.leadsSession()) {
            return TerminalSession.runAsChild();
        }
        Path data = DataDir.resolve(dataDirOption, System.getenv());
        DataDir.ensure(data);
        Map<String, String> properties = new HashMap<>();
        properties.put("pi.host.console", "true");
        properties.put("pi.host.console.workspace", workspace.toRealPath().toString());
        if (permissionMode != null) {
            properties.put("pi.host.console.permissionMode", permissionMode);
        }
        properties.put("pi.host.console.noColor", Boolean.toString(noColor));
        Path logFile = data.resolve("console.log");
        PrintStream out = System.out;
        PrintStream err = System.err;
        int code;
        try (PrintStream log = new PrintStream(new FileOutputStream(logFile.toFile(), false), true,
                StandardCharsets.UTF_8)) {
            System.setOut(log);
            System.setErr(log);
            code = FelixHost.run(data, properties);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        if (code != 0) {
            err.println("pi-host: the host did not start; its log (" + logFile + "):");
            copy(logFile, err);
            return code;
        }
        return Integer.parseInt(System.getProperty("pi.host.console.exitCode", "0"));
    }

    private static void copy(Path logFile, PrintStream to) {
        try {
            to.print(Files.readString(logFile, StandardCharsets.UTF_8));
            to.flush();
        } catch (IOException e) {
            to.println("(the log cannot be read: " + e + ")");
        }
    }
}
