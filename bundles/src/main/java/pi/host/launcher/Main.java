package pi.host.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code pi-host}: the command line. It only parses options and starts the container; everything
 * the host does lives in the bundles.
 */
@Command(name = "pi-host", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"The tool and permission host of a desktop coding agent.",
            "Alone on a terminal it starts the console on the current folder."},
        subcommands = {Main.Serve.class, ConsoleCommand.class, McpCommand.class, PluginCommand.class,
            CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {

    @Option(names = "--data-dir", paramLabel = "DIR", scope = ScopeType.INHERIT,
            description = "Where the host keeps its state (default: $PI_HOST_DATA, else $XDG_DATA_HOME/pi-host).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        // no subcommand: a person at a terminal gets the console on the current folder; anything else
        // (the desktop always says serve --stdio) is told what there is, as a usage error
        if (System.console() != null) {
            return ConsoleCommand.run(dataDir, Path.of(""), null, false);
        }
        new CommandLine(this).usage(System.err);
        return 2;
    }

    public static void main(String[] args) {
        // stdout belongs to the RPC stream: anything printed through System.out goes to stderr
        // instead; the stdio server writes to the real file descriptor.
        PrintStream stdout = System.out;
        System.setOut(System.err);
        // slf4j-simple (the bundles' slf4j provider) already defaults to System.err; say so explicitly
        // unless the user chose otherwise with -D
        if (System.getProperty("org.slf4j.simpleLogger.logFile") == null) {
            System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        }
        java.util.Optional<ServeFastPath.Options> serve = ServeFastPath.parse(args);
        if (serve.isPresent()) {
            int code;
            try {
                code = Serve.run(serve.get().dataDir(), serve.get().maxRequestBytes());
            } catch (Exception e) {
                System.err.println("pi-host: " + e);
                code = 1;
            }
            System.exit(code);
        }
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new java.io.PrintWriter(stdout, true)); // --help and --version answer on stdout
        int code = cli.execute(args);
        stdout.flush();
        System.exit(code);
    }

    /** {@code pi-host serve --stdio}: serve the JSON-RPC protocol on stdin/stdout until EOF or host.shutdown. */
    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = "Serve JSON-RPC 2.0 (one object per line) to the desktop host.")
    static final class Serve implements Callable<Integer> {

        @CommandLine.ParentCommand
        Main parent;

        @Option(names = "--stdio", required = true, description = "Use stdin and stdout (the only transport).")
        boolean stdio;

        @Option(names = "--max-request-bytes", paramLabel = "N", defaultValue = "" + ServeFastPath.DEFAULT_MAX_REQUEST_BYTES,
                description = "Longest request line accepted; a longer one is answered -32600 unread"
                        + " (default: ${DEFAULT-VALUE}).")
        int maxRequestBytes;

        @Override
        public Integer call() throws Exception {
            if (maxRequestBytes < 1024) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--max-request-bytes must be at least 1024");
            }
            return run(parent.dataDir, maxRequestBytes);
        }

        /** Serves until the host stops; shared by picocli and {@link ServeFastPath}. */
        static int run(Path dataDirOption, int maxRequestBytes) throws Exception {
            Path data = DataDir.resolve(dataDirOption, System.getenv());
            return FelixHost.run(data, Map.of("pi.host.stdio", "true",
                    "pi.host.rpc.maxLineBytes", Integer.toString(maxRequestBytes)));
        }
    }

    /** The version from the launcher jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"pi-host " + (v == null ? "(development)" : v)};
        }
    }
}
