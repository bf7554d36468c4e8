package pi.host.launcher;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A real {@code pi-host} process driven over its stdin and stdout, for end-to-end tests. */
public final class HostProcess implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final OutputStream stdin;
    private final List<JsonNode> messages = new CopyOnWriteArrayList<>();
    private final List<String> badLines = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread stdoutPump;
    private final Thread stderrPump;

    private HostProcess(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.stdoutPump = pump(process.getInputStream(), this::onLine, "stdout");
        this.stderrPump = pump(process.getErrorStream(), null, "stderr");
    }

    /** The launcher jar the build produced. */
    public static Path launcherJar() {
        String jar = System.getProperty("pi.host.launcher.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("pi.host.launcher.jar not set or missing: " + jar);
        }
        return Path.of(jar);
    }

    /**
     * {@code java @pi-host/jvm.options -jar <launcher>}: the host started as {@code bin/pi-host} starts it
     * (without its bash and build check). The launcher refuses to serve without those JVM options.
     */
    public static List<String> javaCommand(Path launcherJar) {
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + launcherJar.resolveSibling("pi-host").resolve("jvm.options"), "-jar", launcherJar.toString()));
    }

    /** Starts {@code pi-host} with the given arguments. */
    public static HostProcess start(String... args) throws IOException {
        List<String> command = javaCommand(launcherJar());
        command.addAll(List.of(args));
        return new HostProcess(new ProcessBuilder(command).start());
    }

    /** Starts what {@code builder} says (another user, a relay, JVM options of its own), driven like any host. */
    public static HostProcess start(ProcessBuilder builder) throws IOException {
        return new HostProcess(builder.start());
    }

    /** Starts {@code pi-host serve --stdio} on a data dir. */
    public static HostProcess serve(Path dataDir, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("serve", "--stdio", "--data-dir", dataDir.toString()));
        args.addAll(List.of(extra));
        return start(args.toArray(String[]::new));
    }

    private Thread pump(InputStream in, java.util.function.Consumer<String> lines, String name) {
        Thread t = new Thread(() -> {
            try {
                if (lines == null) {
                    in.transferTo(new OutputStream() {
                        @Override
                        public void write(int b) {
                            synchronized (stderr) {
                                stderr.write(b);
                            }
                        }

                        @Override
                        public void write(byte[] b, int off, int len) {
                            synchronized (stderr) {
                                stderr.write(b, off, len);
                            }
                        }
                    });
                    return;
                }
                java.io.BufferedReader r = new java.io.BufferedReader(
                        new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
                String line;
                while ((line = r.readLine()) != null) {
                    lines.accept(line);
                }
            } catch (IOException e) {
                // process gone
            }
        }, "host-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void onLine(String line) {
        try {
            messages.add(JSON.readTree(line));
        } catch (IOException e) {
            badLines.add(line);
        }
    }

    /** Writes one line (a newline is added). */
    public HostProcess send(String line) throws IOException {
        stdin.write(line.getBytes(StandardCharsets.UTF_8));
        stdin.write('\n');
        stdin.flush();
        return this;
    }

    /** Writes raw bytes as they are. */
    public HostProcess sendRaw(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
        return this;
    }

    /** Sends a request and waits for its response. */
    public JsonNode request(int id, String method, String paramsJson) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}");
        return response(id);
    }

    /** Ids for {@link #call}, far from the small ids tests choose themselves. */
    private final java.util.concurrent.atomic.AtomicInteger nextId = new java.util.concurrent.atomic.AtomicInteger(1_000_000);

    /** Sends a request, waits for its answer, and returns its result; a JSON-RPC error fails the test. */
    public JsonNode call(String method, String paramsJson) throws IOException {
        JsonNode answer = request(nextId.incrementAndGet(), method, paramsJson);
        if (answer.has("error")) {
            throw new AssertionError(method + " answered " + answer);
        }
        return answer.get("result");
    }

    /**
     * The host.info result once the whole host has started: the bundles after the first answer start while
     * it is given (StartupGate), so a request that waits for them (session.list) goes first.
     */
    public JsonNode startedInfo() throws IOException {
        call("session.list", "{}");
        JsonNode info = call("host.info", "{}");
        if (!info.path("ready").asBoolean()) {
            throw new AssertionError("host.info after a gated request is not ready: " + info);
        }
        return info;
    }

    /** Runs one {@code tools.execute} (turn t1, message m1) and returns its ToolResult. */
    public JsonNode tool(String session, String callId, String name, String argumentsJson) throws IOException {
        return call("tools.execute", "{\"sessionId\":\"" + session + "\",\"turnId\":\"t1\",\"toolCallId\":\""
                + callId + "\",\"messageId\":\"m1\",\"name\":\"" + name + "\",\"arguments\":" + argumentsJson + "}");
    }

    /** A fresh request id for a request a test writes itself ({@link #send}). */
    public int nextRequestId() {
        return nextId.incrementAndGet();
    }

    /** Starts a {@code tools.execute} (turn t1) without waiting; {@link #result(int)} awaits its ToolResult. */
    public int startTool(String session, String callId, String name, String argumentsJson) throws IOException {
        int id = nextId.incrementAndGet();
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"" + callId + "\",\"name\":\"" + name
                + "\",\"arguments\":" + argumentsJson + "}}");
        return id;
    }

    /** The ToolResult answering the {@code tools.execute} sent with this id. */
    public JsonNode result(int id) {
        JsonNode answer = response(id);
        if (!answer.has("result")) {
            throw new AssertionError("tools.execute answered " + answer);
        }
        return answer.get("result");
    }

    /** Waits (bounded) for the permission card of this call and returns its params. */
    public JsonNode card(String callId) {
        return awaitMessage(m -> "permission.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).get("params");
    }

    /** How many permission cards this call has shown so far. */
    public long cards(String callId) {
        return messages.stream().filter(m -> "permission.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).count();
    }

    /** Answers a card: allow-once, allow-session or deny. */
    public void resolve(JsonNode card, String decision) throws IOException {
        call("permissions.resolve", "{\"requestId\":\"" + card.get("requestId").asText() + "\",\"decision\":\""
                + decision + "\"}");
    }

    /** Runs a call that must show a card, denies the card, checks the call was TOOL_DENIED; returns the card. */
    public JsonNode denyCard(String session, String callId, String name, String argumentsJson) throws IOException {
        int id = startTool(session, callId, name, argumentsJson);
        JsonNode card = card(callId);
        resolve(card, "deny");
        JsonNode r = result(id);
        if (!"TOOL_DENIED".equals(r.path("errorCode").asText())) {
            throw new AssertionError(callId + " was not denied after its card: " + r);
        }
        return card;
    }

    /** Runs a call that must succeed without showing a card; returns its ToolResult. */
    public JsonNode okWithoutCard(String session, String callId, String name, String argumentsJson)
            throws IOException {
        JsonNode r = result(startTool(session, callId, name, argumentsJson));
        if (cards(callId) != 0 || !r.path("ok").asBoolean()) {
            throw new AssertionError(callId + " showed " + cards(callId) + " card(s) or failed: " + r);
        }
        return r;
    }

    /** The audit row of one call of the session. */
    public JsonNode auditRow(String session, String callId) throws IOException {
        for (JsonNode r : call("audit.query", json("sessionId", session)).get("rows")) {
            if (callId.equals(r.get("toolCallId").asText())) {
                return r;
            }
        }
        throw new AssertionError("no audit row for " + callId);
    }

    /** A JSON object from alternating keys and string values, escaped properly. */
    public static String json(String... keysAndValues) {
        com.fasterxml.jackson.databind.node.ObjectNode o = JSON.createObjectNode();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            o.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return o.toString();
    }

    /** A new session on {@code projectRoot} with the given permission mode; its id. */
    public String session(Path projectRoot, String permissionMode) throws IOException {
        return call("session.create", json("projectRoot", projectRoot.toString(), "permissionMode", permissionMode))
                .get("sessionId").asText();
    }

    /** Waits (bounded) for the response with this numeric id. */
    public JsonNode response(int id) {
        return awaitMessage(m -> m.has("id") && m.get("id").isInt() && m.get("id").asInt() == id);
    }

    /** Waits (bounded) for the first message matching {@code test}. */
    public JsonNode awaitMessage(Predicate<JsonNode> test) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> messages.stream().filter(test).findFirst(),
                java.util.Optional::isPresent).get();
    }

    /** Every message received so far. */
    public List<JsonNode> messages() {
        return List.copyOf(messages);
    }

    /** Lines on stdout that were not JSON (must stay empty: stdout belongs to the protocol). */
    public List<String> badLines() {
        return List.copyOf(badLines);
    }

    public String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    /** Closes stdin (end of input). */
    public HostProcess closeInput() throws IOException {
        stdin.close();
        return this;
    }

    /** Waits (bounded) for the process to exit and returns its exit code. */
    public int awaitExit(Duration bound) throws InterruptedException {
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("pi-host did not exit within " + bound + "; stderr:\n" + stderr());
        }
        stdoutPump.join(5000);
        stderrPump.join(5000);
        return process.exitValue();
    }

    public Process process() {
        return process;
    }

    @Override
    public void close() {
        // a host started through a wrapper (setpriv, a relay shell) is not the process itself
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
