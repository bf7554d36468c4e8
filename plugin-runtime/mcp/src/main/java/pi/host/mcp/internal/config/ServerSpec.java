package pi.host.mcp.internal.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One valid entry of {@code mcpServers}: a stdio server (command) or a streamable HTTP server (url).
 * Equal specs mean an unchanged server: a reload keeps it running.
 *
 * @param cwd the stdio server's working directory (the user's home when the entry names none)
 * @param timeoutMs the budget of one request to the server, initialize included
 */
public record ServerSpec(String id, Transport transport, String command, List<String> args, Map<String, String> env,
        Path cwd, URI url, Map<String, String> headers, long timeoutMs, boolean disabled) {

    /** How the bridge talks to a server. */
    public enum Transport {
        STDIO("stdio"), HTTP("http");

        private final String wire;

        Transport(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** A request's budget when the entry sets none (PROTOCOL.md: 60 s). */
    public static final long DEFAULT_TIMEOUT_MS = 60_000;

    public ServerSpec {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        headers = Map.copyOf(headers);
    }
}
