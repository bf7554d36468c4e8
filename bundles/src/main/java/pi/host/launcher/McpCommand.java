package pi.host.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pi-host mcp}: the host as an MCP server (the bundle {@code pi.host.mcpserver}, installed
 * from the optional set {@code bundles-mcp.list} for this command only). This class only checks the
 * command line and hands it to the front as framework properties; every usage error is exit 2
 * before the container starts.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serve MCP to any MCP client: our tools under our permissions, roots and audit.",
            "Over stdio by default; with --http, streamable HTTP on a loopback address with a bearer token."})
final class McpCommand implements Callable<Integer> {

    /** The shortest token accepted from --token-file (a generated one has 43 characters). */
    static final int MIN_TOKEN_LENGTH = 32;

    @CommandLine.ParentCommand
    Main parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--workspace", paramLabel = "DIR",
            description = "The session's workspace root (default: a temporary session with its scratch dir as root).")
    Path workspace;

    @CommandLine.Mixin
    PermissionModeOption permissionMode;

    @Option(names = "--http", paramLabel = "HOST:PORT",
            description = "Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (port 0: any free port).")
    String http;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "With --http: the bearer token clients must send (first line; at least "
                    + MIN_TOKEN_LENGTH + " characters). Default: a generated token, printed to stderr.")
    Path tokenFile;

    @Option(names = "--approver", paramLabel = "WHO", defaultValue = "elicitation",
            description = "Who answers permission cards: elicitation (the MCP client asks its user; default) or rpc"
                    + " (a JSON-RPC client on stdin/stdout, the process that spawned the host; needs --http).")
    String approver;

    @Option(names = "--allow-remote",
            description = "With --http: allow a non-loopback HOST and clients from other addresses.")
    boolean allowRemote;

    @Override
    public Integer call() throws Exception {
        Map<String, String> properties = properties();
        Path data = DataDir.resolve(parent.dataDir, System.getenv());
        // the SDK logs each session at INFO; stderr is the user's, keep it to what matters
        System.setProperty("org.slf4j.simpleLogger.log.io.modelcontextprotocol", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.org.eclipse.jetty", "warn");
        int code = FelixHost.run(data, properties);
        // the front could not serve (say, the port is taken): it said why on stderr and stopped the host
        return System.getProperty("pi.host.mcp.failed") != null ? 1 : code;
    }

    /** The framework properties the front reads; a bad combination is a usage error. */
    Map<String, String> properties() {
        Map<String, String> p = new HashMap<>();
        p.put(BundleSet.SETS, "mcp");
        p.put("pi.host.mcp", "true");
        if (workspace != null) {
            Path dir = workspace.toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw usage("--workspace " + workspace + " is not a directory");
            }
            p.put("pi.host.mcp.workspace", dir.toString());
        }
        if (permissionMode.mode() != null) {
            p.put("pi.host.mcp.permissionMode", permissionMode.mode());
        }
        if (!approver.equals("elicitation") && !approver.equals("rpc")) {
            throw usage("--approver must be elicitation or rpc, was " + approver);
        }
        p.put("pi.host.mcp.approver", approver);
        if (http == null) {
            if (approver.equals("rpc")) {
                throw usage("--approver rpc needs --http: without it stdin and stdout carry MCP, so no JSON-RPC"
                        + " client could answer the cards");
            }
            if (tokenFile != null || allowRemote) {
                throw usage((tokenFile != null ? "--token-file" : "--allow-remote") + " only applies with --http");
            }
            return p;
        }
        p.put("pi.host.mcp.http", listenAddress(http, allowRemote));
        if (allowRemote) {
            p.put("pi.host.mcp.allowRemote", "true");
        }
        if (tokenFile != null) {
            checkToken(tokenFile);
            p.put("pi.host.mcp.tokenFile", tokenFile.toAbsolutePath().normalize().toString());
        }
        if (approver.equals("rpc")) {
            // stdin/stdout stay the JSON-RPC channel of whoever spawned the host: it answers the cards
            p.put("pi.host.stdio", "true");
        }
        return p;
    }

    /** {@code HOST:PORT} checked: a port in range, and a loopback host unless remote clients are allowed. */
    private String listenAddress(String value, boolean remote) {
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw usage("--http wants HOST:PORT, was " + value);
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw usage("--http port must be a number, was " + value.substring(colon + 1));
        }
        if (port < 0 || port > 65535) {
            throw usage("--http port must be 0 to 65535, was " + port);
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw usage("--http host " + host + " does not resolve");
        }
        if (!address.isLoopbackAddress() && !remote) {
            throw usage("--http " + value + " is not a loopback address; pi-host serves other machines only with"
                    + " --allow-remote");
        }
        return address.getHostAddress() + ":" + port;
    }

    private void checkToken(Path file) {
        String token;
        try {
            token = Files.readAllLines(file).stream().findFirst().orElse("").strip();
        } catch (IOException e) {
            throw usage("--token-file " + file + " cannot be read: " + e.getMessage());
        }
        if (token.length() < MIN_TOKEN_LENGTH) {
            throw usage("--token-file " + file + " holds a token of " + token.length() + " characters; at least "
                    + MIN_TOKEN_LENGTH + " are needed");
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
