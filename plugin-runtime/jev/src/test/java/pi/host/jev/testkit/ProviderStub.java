package pi.host.jev.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A loopback stand-in for the classifier provider's HTTPS API, which cannot run here: a plain HTTP/1.1
 * server on 127.0.0.1 that records every request it gets (method, path, headers, body) and answers as
 * the test scripts it, or holds the request open and notices when the client closes the connection (a
 * cancelled or timed-out request). Raw sockets, so that closing is seen exactly as the kernel reports it.
 */
public final class ProviderStub implements AutoCloseable {

    /** One request as the stub read it; header names are lower case. */
    public record Received(String method, String path, Map<String, String> headers, byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** What the stub does with a request. */
    @FunctionalInterface
    public interface Behaviour {
        /** Answers (or holds) {@code request} on {@code socket}; the stub closes the socket afterwards. */
        void handle(Received request, Socket socket, ProviderStub stub) throws IOException;
    }

    /** Answers with {@code status}, the extra headers ({@code name, value, ...}) and {@code body} as JSON. */
    public static Behaviour reply(int status, String body, String... headers) {
        return (request, socket, stub) -> {
            StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" Stub\r\n")
                    .append("Content-Type: application/json\r\n")
                    .append("Content-Length: ").append(body.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
                    .append("Connection: close\r\n");
            for (int i = 0; i + 1 < headers.length; i += 2) {
                head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body.getBytes(StandardCharsets.UTF_8));
            out.flush();
        };
    }

    /** Never answers: waits until the client closes the connection, and records that it did. */
    public static Behaviour hold() {
        return (request, socket, stub) -> {
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // a well-behaved client sends nothing more; whatever it sends is dropped
            }
            stub.closedByClient.countDown();
        };
    }

    /** {@code \r\n\r\n} as the last four bytes read. */
    private static final int END_OF_HEAD = 0x0d0a0d0a;

    private final ServerSocket server;
    private final Behaviour behaviour;
    private final List<Received> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch received = new CountDownLatch(1);
    private final CountDownLatch closedByClient = new CountDownLatch(1);
    private final Thread acceptor;

    private ProviderStub(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.acceptor = new Thread(this::accept, "provider-stub");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public static ProviderStub start(Behaviour behaviour) throws IOException {
        return new ProviderStub(behaviour);
    }

    /** The evaluation endpoint on the stub. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1/systemone");
    }

    /** Every request received so far. */
    public List<Received> requests() {
        return List.copyOf(requests);
    }

    /** Waits until a request arrived; false when none did within the bound. */
    public boolean awaitRequest(long millis) throws InterruptedException {
        return received.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Waits until a held request's client closed its connection; false when it did not within the bound. */
    public boolean awaitClientClosed(long millis) throws InterruptedException {
        return closedByClient.await(millis, TimeUnit.MILLISECONDS);
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Thread t = new Thread(() -> serve(socket), "provider-stub-connection");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            Received request = read(socket.getInputStream());
            if (request == null) {
                return;
            }
            requests.add(request);
            received.countDown();
            behaviour.handle(request, socket, this);
        } catch (IOException e) {
            // the client went away mid-answer: nothing to record
        }
    }

    private static Received read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        int b;
        while (last4 != END_OF_HEAD && (b = in.read()) >= 0) {
            head.write(b);
            last4 = (last4 << 8) | (b & 0xff);
        }
        if (last4 != END_OF_HEAD) {
            return null;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Received(requestLine[0], requestLine.length > 1 ? requestLine[1] : "", headers, body);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
