package pi.host.launcher;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A real MCP client for end-to-end tests: {@code src/test/node/mcp-driver.mjs}, the official
 * TypeScript SDK from the repo's npm folder ({@code bench/node_modules}, installed by
 * {@code npm ci --prefix bench} as {@code .ci/run} does), driven one command at a time. Fails with a
 * clear message when node or the SDK is missing; it never skips.
 */
public final class McpClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration BOUND = Duration.ofSeconds(60);

    private final Process process;
    private final OutputStream stdin;
    private final List<JsonNode> messages = new CopyOnWriteArrayList<>();
    private final StringBuffer stderr = new StringBuffer();
    private final AtomicInteger ids = new AtomicInteger();

    private McpClient(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
    }

    /** Starts the driver; the test fails here, saying what to install, when node or the SDK is missing. */
    public static McpClient start() throws IOException {
        // pi.host.npm names bench/node_modules (McpFixture reads it too); the driver takes the folder holding it
        Path npm = Path.of(System.getProperty("pi.host.npm", "../bench/node_modules")).toAbsolutePath().normalize()
                .getParent();
        Path sdk = npm.resolve("node_modules/@modelcontextprotocol/sdk/package.json");
        if (!Files.isRegularFile(sdk)) {
            throw new AssertionError("the MCP TypeScript SDK is missing at " + sdk
                    + ": install the repo's npm packages with 'npm ci --prefix bench' (as .ci/run does)");
        }
        Path driver = Path.of(System.getProperty("pi.host.mcp.driver", "src/test/node/mcp-driver.mjs"));
        try {
            return new McpClient(new ProcessBuilder("node", driver.toString(), npm.toString()).start());
        } catch (IOException e) {
            throw new AssertionError("node is needed for the MCP client tests (Node 20 or later): " + e.getMessage(), e);
        }
    }

    private void pump(BufferedReader in, boolean json) {
        Thread t = new Thread(() -> {
            try {
                String line;
                while ((line = in.readLine()) != null) {
                    if (json) {
                        messages.add(JSON.readTree(line));
                    } else {
                        stderr.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // driver gone
            }
        }, "mcp-driver-" + (json ? "out" : "err"));
        t.setDaemon(true);
        t.start();
    }

    /** Connects over stdio: the driver spawns {@code java @jvm.options -jar <launcher> mcp ARGS}. */
    public JsonNode connectStdio(boolean elicitation, String... mcpArgs) throws IOException {
        ObjectNode c = command("connect").put("transport", "stdio").put("elicitation", elicitation)
                .put("command", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        var args = c.putArray("args");
        HostProcess.javaCommand(HostProcess.launcherJar()).stream().skip(1).forEach(args::add); // @jvm.options -jar …
        args.add("mcp");
        for (String a : mcpArgs) {
            args.add(a);
        }
        return ok(send(c));
    }

    /** Connects over streamable HTTP with the bearer token (null: none). */
    public JsonNode connectHttp(String url, String token, boolean elicitation) throws IOException {
        ObjectNode c = command("connect").put("transport", "http").put("url", url).put("elicitation", elicitation);
        if (token != null) {
            c.put("token", token);
        }
        return send(c);
    }

    /** How the client answers the next elicitations: accept with this decision, or decline / cancel. */
    public void answer(String action, String decision) throws IOException {
        ObjectNode c = command("answer").put("action", action);
        if (decision != null) {
            c.putObject("content").put("decision", decision);
        }
        ok(send(c));
    }

    public JsonNode listTools() throws IOException {
        return ok(send(command("listTools")));
    }

    /** Calls a tool and returns its CallToolResult. */
    public JsonNode call(String name, String argumentsJson) throws IOException {
        return ok(send(callCommand(name, argumentsJson)));
    }

    /** Calls a tool with progress reporting, cancelling the call at its first progress notification; the answer line. */
    public JsonNode callCancellingOnProgress(String name, String argumentsJson) throws IOException {
        return send(callCommand(name, argumentsJson).put("cancelOnProgress", true));
    }

    private ObjectNode callCommand(String name, String argumentsJson) throws IOException {
        ObjectNode c = command("call").put("name", name);
        c.set("arguments", JSON.readTree(argumentsJson));
        return c;
    }

    public void closeSession() throws IOException {
        ok(send(command("close")));
    }

    /** The events the server sent (elicitation, progress, toolsChanged) so far. */
    public List<JsonNode> events(String kind) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode m : messages) {
            if (kind.equals(m.path("event").asText())) {
                out.add(m);
            }
        }
        return out;
    }

    /** Waits (bounded) for an event of this kind matching {@code test}. */
    public JsonNode awaitEvent(String kind, Predicate<JsonNode> test) {
        return await().atMost(BOUND).until(() -> events(kind).stream().filter(test).findFirst(), Optional::isPresent)
                .get();
    }

    private ObjectNode command(String op) {
        return JSON.createObjectNode().put("id", ids.incrementAndGet()).put("op", op);
    }

    /** Sends a command and waits (bounded) for its answer line. */
    private JsonNode send(ObjectNode c) throws IOException {
        stdin.write((JSON.writeValueAsString(c) + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        int id = c.get("id").asInt();
        try {
            return await().atMost(BOUND).until(() -> messages.stream()
                    .filter(m -> m.has("id") && m.get("id").asInt() == id).findFirst(), Optional::isPresent).get();
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("no answer to " + c + "; driver stderr:\n" + stderr, e);
        }
    }

    private JsonNode ok(JsonNode answer) {
        if (!answer.path("ok").asBoolean()) {
            throw new AssertionError("the MCP client failed: " + answer + "\nstderr:\n" + stderr);
        }
        return answer.get("result");
    }

    /** The first text item of a CallToolResult. */
    public static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asText();
    }

    /** The tool names of a tools/list result. */
    public static List<String> toolNames(JsonNode listing) {
        List<String> names = new ArrayList<>();
        listing.path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    /** What the driver and the host it spawned wrote to stderr. */
    public String stderr() {
        return stderr.toString();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            stdin.close();
        } catch (IOException e) {
            // gone already
        }
        if (!process.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
