package pi.host.mcpserver.internal.transport;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Every HTTP request passes here before the SDK's servlet sees it: a peer that is not on a loopback
 * address (unless remote clients are allowed) gets 403, a request without the bearer token 401, a
 * body over the bound 413; nothing of the host runs for any of them. An accepted POST body goes
 * through the {@link InboundTap} (cancellations, request ids); an accepted DELETE ends the MCP
 * session's running calls.
 */
public final class RequestGuard implements Filter {

    /** Longest request body read. */
    static final int MAX_BODY = 4 * 1024 * 1024;
    static final String SESSION_HEADER = "Mcp-Session-Id";

    private final BearerToken token;
    private final boolean allowRemote;
    private final InboundTap tap;
    private final Consumer<String> sessionDeleted;

    public RequestGuard(BearerToken token, boolean allowRemote, InboundTap tap, Consumer<String> sessionDeleted) {
        this.token = token;
        this.allowRemote = allowRemote;
        this.tap = tap;
        this.sessionDeleted = sessionDeleted;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest in = (HttpServletRequest) request;
        HttpServletResponse out = (HttpServletResponse) response;
        if (!allowRemote && !loopback(in.getRemoteAddr())) {
            refuse(out, HttpServletResponse.SC_FORBIDDEN, "pi-host serves MCP to loopback clients only");
            return;
        }
        if (!token.accepts(in.getHeader("Authorization"))) {
            out.setHeader("WWW-Authenticate", "Bearer realm=\"pi-host\"");
            refuse(out, HttpServletResponse.SC_UNAUTHORIZED, "a valid bearer token is required");
            return;
        }
        String session = in.getHeader(SESSION_HEADER);
        if ("POST".equals(in.getMethod())) {
            byte[] body = read(in.getInputStream());
            if (body == null) {
                refuse(out, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, "the request body is over "
                        + MAX_BODY + " bytes");
                return;
            }
            String tapped = tap.inbound(session, new String(body, StandardCharsets.UTF_8));
            chain.doFilter(new Body(in, tapped.getBytes(StandardCharsets.UTF_8)), out);
            return;
        }
        chain.doFilter(in, out);
        if ("DELETE".equals(in.getMethod()) && session != null && out.getStatus() < 300) {
            sessionDeleted.accept(session);
        }
    }

    /** Whether a peer address is a loopback address (127.0.0.0/8, ::1). */
    static boolean loopback(String address) {
        if (address == null || address.isEmpty()) {
            return false;
        }
        try {
            // a literal address: no lookup happens
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }

    /** The body, or null when it is longer than {@link #MAX_BODY}. */
    private static byte[] read(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) != -1) {
            body.write(buf, 0, n);
            if (body.size() > MAX_BODY) {
                return null;
            }
        }
        return body.toByteArray();
    }

    private static void refuse(HttpServletResponse out, int status, String message) throws IOException {
        out.setStatus(status);
        out.setContentType("application/json");
        out.setCharacterEncoding("UTF-8");
        out.getWriter().write("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32001,\"message\":\""
                + message + "\"}}");
    }

    /** The request with its body replaced by the tapped one. */
    private static final class Body extends HttpServletRequestWrapper {
        private final byte[] body;

        Body(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream bytes = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return bytes.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return bytes.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return bytes.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body is already read");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }
    }
}
