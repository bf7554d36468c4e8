package pi.host.mcpserver.internal.transport;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import pi.host.mcpserver.internal.FrontOptions;
import pi.host.mcpserver.internal.session.FrontSessions;

/**
 * {@code pi-host mcp --http HOST:PORT}: the SDK's streamable HTTP transport (a Servlet 6.1 servlet,
 * one MCP session per {@code Mcp-Session-Id}) in an embedded Jetty bound to that address alone, at
 * {@code /mcp}, behind the {@link RequestGuard} (loopback peers, bearer token). The SDK's own
 * validator checks the Host header against the loopback names of the bound port (DNS rebinding) and
 * refuses any request carrying an Origin header (a browser page).
 */
public final class HttpFront {

    static final String ENDPOINT = "/mcp";

    private final FrontOptions options;
    private final InboundTap tap;
    private final FrontSessions sessions;
    private final Server server;
    private final ServerConnector connector;
    private HttpServletStreamableServerTransportProvider transport;
    private BearerToken token;

    public HttpFront(FrontOptions options, InboundTap tap, FrontSessions sessions) throws IOException {
        this.options = options;
        this.tap = tap;
        this.sessions = sessions;
        QueuedThreadPool threads = new QueuedThreadPool(64, 2);
        threads.setName("pi-mcp-http");
        threads.setDaemon(true);
        this.server = new Server(threads);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        this.connector = new ServerConnector(server, new HttpConnectionFactory(config));
        int colon = options.http().lastIndexOf(':');
        connector.setHost(options.http().substring(0, colon));
        connector.setPort(Integer.parseInt(options.http().substring(colon + 1)));
        server.addConnector(connector);
        // bind now: the Host check needs the real port (port 0 picks one)
        connector.open();
    }

    /** The SDK transport for this address; built once. */
    public HttpServletStreamableServerTransportProvider transport(McpJsonMapper mapper) throws IOException {
        token = BearerToken.of(options.tokenFile());
        DefaultServerTransportSecurityValidator.Builder headers = DefaultServerTransportSecurityValidator.builder();
        if (!options.allowRemote()) {
            int port = connector.getLocalPort();
            headers.allowedHosts(List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port,
                    connector.getHost() + ":" + port));
        }
        transport = HttpServletStreamableServerTransportProvider.builder().jsonMapper(mapper).mcpEndpoint(ENDPOINT)
                .securityValidator(headers.build()).build();
        return transport;
    }

    /** Mounts the transport behind the guard and starts answering; prints the URL (and a generated token). */
    public void start() throws Exception {
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder(transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, ENDPOINT);
        FilterHolder guard = new FilterHolder(new RequestGuard(token, options.allowRemote(), tap, sessions::closed));
        guard.setAsyncSupported(true);
        context.addFilter(guard, "/*", EnumSet.of(DispatcherType.REQUEST));
        server.setHandler(context);
        server.start();
        String host = connector.getHost().contains(":") ? "[" + connector.getHost() + "]" : connector.getHost();
        System.err.println("pi-host mcp: serving streamable HTTP at http://" + host + ":" + connector.getLocalPort()
                + ENDPOINT);
        if (token.generated()) {
            System.err.println("pi-host mcp: bearer token (send it as 'Authorization: Bearer <token>'): "
                    + token.value());
        } else {
            System.err.println("pi-host mcp: bearer token from " + options.tokenFile());
        }
    }

    public void stop() {
        try {
            server.stop();
        } catch (Exception e) {
            System.err.println("pi-host mcp: stopping the HTTP server failed: " + e);
        }
    }
}
