package pi.host.mcp.internal.server;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import pi.host.mcp.internal.config.ServerSpec;

/**
 * How a stdio server's process is started: the one place that knows, so that a host-wide spawning
 * facility can replace it. The SDK's {@link StdioClientTransport} starts the process (stdin, stdout and
 * stderr are pipes; the JDK closes every other descriptor of the host in the child); this class decides
 * what it starts:
 *
 * <pre>
 * setpriv --pdeathsig URG --  /bin/sh -c WATCHDOG pi-mcp:MARKER HOST_PID SETSID  COMMAND ARGS...
 * </pre>
 *
 * The watchdog ({@code watchdog.sh}) runs the command with {@code setsid}, so the server leads a process
 * group (and session) of its own, and kills that group on removal, on shutdown and when the host dies
 * (the parent-death signal reaches the watchdog even after kill -9 of the host). That signal is
 * {@value #PARENT_DEATH_SIGNAL}, which does nothing by default: it also comes when only the host thread
 * that started the server ends, and one that came before the watchdog's trap was set would have ended
 * the watchdog (and so the server) with a signal that terminates by default; the watchdog looks at its
 * parent once after setting the trap instead, so a host death in that window is not missed. The environment is
 * the small set other MCP clients pass (HOME, LOGNAME, SHELL, TERM, USER, locale) with PATH from the
 * user's login shell, then the entry's {@code env}; the host's own variables are not passed on.
 */
public final class StdioLaunch {

    /** The parent-death signal the watchdog gets (its trap in watchdog.sh names the same one). */
    static final String PARENT_DEATH_SIGNAL = "URG";

    /** Variables a server gets from the host's environment; everything else it gets from its entry. */
    static final List<String> INHERITED = List.of("HOME", "LOGNAME", "USER", "SHELL", "TERM", "LANG", "LC_ALL",
            "LC_CTYPE", "TMPDIR");
    /** Only system folders are searched for the wrapper tools: the user's PATH could name anything. */
    private static final List<String> SYSTEM_DIRS = List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin");
    /** Longest line taken from a server's stdout (a larger message ends the connection). */
    static final int MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

    private static final String WATCHDOG = watchdog();

    private final Optional<Path> setpriv;
    private final Optional<Path> setsid;

    /** Finds the wrapper tools once (util-linux on Linux; elsewhere the server runs without them). */
    public StdioLaunch() {
        this(systemTool("setpriv"), systemTool("setsid"));
    }

    StdioLaunch(Optional<Path> setpriv, Optional<Path> setsid) {
        this.setpriv = setpriv;
        this.setsid = setsid;
    }

    /** A started server's identity: the marker in the watchdog's arguments finds its process. */
    public record Launch(StdioClientTransport transport, String marker) {

        /** The watchdog process (the host's child), once the transport has started it. */
        public Optional<ProcessHandle> watchdog() {
            return ProcessHandle.current().children().filter(p -> p.info().arguments()
                    .map(a -> Arrays.asList(a).contains(marker)).orElse(false)).findFirst();
        }
    }

    /** The SDK transport that starts {@code spec}'s server as described above when the client connects. */
    public Launch transport(ServerSpec spec, Optional<String> loginPath, McpJsonMapper mapper) {
        String marker = "pi-mcp:" + spec.id().replaceAll("[^A-Za-z0-9_.-]", "_") + ":" + UUID.randomUUID();
        List<String> command = command(spec, marker, Long.toString(ProcessHandle.current().pid()));
        ServerParameters params = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .env(environment(spec, loginPath, System.getenv()))
                .build();
        Path cwd = spec.cwd();
        StdioClientTransport transport = new StdioClientTransport(params, mapper, MAX_MESSAGE_CHARS) {
            @Override
            protected ProcessBuilder getProcessBuilder() {
                ProcessBuilder pb = new ProcessBuilder();
                pb.environment().clear(); // the SDK adds the parameters' environment, and only that
                if (cwd != null) {
                    pb.directory(cwd.toFile());
                }
                return pb;
            }
        };
        return new Launch(transport, marker);
    }

    /** The command line that starts {@code spec}'s server under the watchdog, for the host {@code hostPid}. */
    List<String> command(ServerSpec spec, String marker, String hostPid) {
        List<String> command = new ArrayList<>();
        setpriv.ifPresent(p -> command.addAll(List.of(p.toString(), "--pdeathsig", PARENT_DEATH_SIGNAL, "--")));
        command.addAll(List.of("/bin/sh", "-c", WATCHDOG, marker, hostPid,
                setsid.map(Path::toString).orElse(""), spec.command()));
        command.addAll(spec.args());
        return command;
    }

    /** The server's environment: {@link #INHERITED}, the login PATH, then the entry's own variables. */
    static Map<String, String> environment(ServerSpec spec, Optional<String> loginPath, Map<String, String> host) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : INHERITED) {
            String v = host.get(name);
            if (v != null) {
                env.put(name, v);
            }
        }
        String path = loginPath.orElse(host.get("PATH"));
        if (path != null) {
            env.put("PATH", path);
        }
        env.putAll(spec.env());
        return env;
    }

    private static Optional<Path> systemTool(String name) {
        for (String dir : SYSTEM_DIRS) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static String watchdog() {
        try (InputStream in = StdioLaunch.class.getResourceAsStream("watchdog.sh")) {
            if (in == null) {
                throw new IllegalStateException("watchdog.sh is missing from the bundle");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
