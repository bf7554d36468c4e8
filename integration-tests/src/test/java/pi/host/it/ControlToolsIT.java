package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import pi.host.core.rpc.RpcEndpoint;

/** The interactive control tool asktool through the one pipeline, in every mode. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ControlToolsIT {

    @Inject
    private RpcEndpoint endpoint;

    private RpcClient rpc;

    @Configuration
    public Option[] config() {
        return new Option[] {HostBundles.options()};
    }

    @Before
    public void connect() {
        rpc = new RpcClient(endpoint);
    }

    @After
    public void disconnect() {
        rpc.close();
    }

    private String session(String mode) throws IOException {
        return rpc.call("session.create", RpcClient.params()
                .put("projectRoot", ItFolders.fresh("proj").toString()).put("mode", mode))
                .get("sessionId").asText();
    }

    private int ask(String session, String callId) {
        ObjectNode p = RpcClient.params().put("sessionId", session).put("turnId", "t1").put("toolCallId", callId)
                .put("name", "asktool");
        ObjectNode q = p.putObject("arguments").putArray("questions").addObject().put("question", "Ship it?");
        q.putArray("options").add("yes").addObject().put("label", "no").put("description", "not yet");
        return rpc.send("tools.execute", p);
    }

    @Test
    public void asktoolWaitsForTheAnswerWithoutACardInPlanToo() throws IOException {
        for (String mode : new String[] {"agent", "plan"}) {
            String s = session(mode);
            int pending = ask(s, "q-" + mode);
            JsonNode request = rpc.awaitNotification("ask.request", "for q-" + mode,
                    r -> ("q-" + mode).equals(r.path("toolCallId").asText()));
            assertEquals("Ship it?", request.get("questions").get(0).get("question").asText());
            ObjectNode resolve = RpcClient.params().put("requestId", request.get("requestId").asText());
            resolve.putArray("answers").add("no");
            rpc.call("asks.resolve", resolve);
            JsonNode result = rpc.response(pending);
            assertTrue(result.get("ok").asBoolean());
            assertEquals("no", result.get("details").get("answers").get(0).asText());
            assertTrue(rpc.notifications("permission.request").isEmpty());
        }
    }

    @Test
    public void aStopResolvesAsktoolAsSkipped() throws IOException {
        String s = session("agent");
        int pending = ask(s, "q-stop");
        rpc.awaitNotification("ask.request", "for q-stop", r -> "q-stop".equals(r.path("toolCallId").asText()));
        JsonNode aborted = rpc.call("tools.abort", RpcClient.params().put("sessionId", s).put("toolCallId", "q-stop"));
        assertTrue(aborted.get("aborted").asBoolean());
        JsonNode result = rpc.response(pending);
        assertTrue(result.get("details").get("skipped").asBoolean());
        assertEquals("", result.get("details").get("answers").get(0).asText());
    }

    private JsonNode execute(String session, String callId, String tool, ObjectNode args) {
        ObjectNode p = RpcClient.params().put("sessionId", session).put("turnId", "t1").put("toolCallId", callId)
                .put("name", tool);
        p.set("arguments", args);
        return rpc.call("tools.execute", p);
    }

    @Test
    public void todoWriteSavesTheOrderedChecklistInAgentAndIsDeniedInPlan() throws IOException {
        String s = session("agent");
        ObjectNode args = RpcClient.params();
        args.putArray("todos").add(RpcClient.params().put("content", "write tests").put("status", "completed"))
                .add(RpcClient.params().put("content", "ship").put("status", "in_progress"));
        JsonNode result = execute(s, "todo1", "TodoWrite", args);
        assertTrue(result.toString(), result.get("ok").asBoolean());
        JsonNode update = rpc.awaitNotification("todo.updated", "for " + s, u -> s.equals(u.path("sessionId").asText()));
        assertEquals("write tests", update.get("todos").get(0).get("content").asText());
        assertEquals("in_progress", update.get("todos").get(1).get("status").asText());

        ObjectNode bad = RpcClient.params();
        bad.putArray("todos").add(RpcClient.params().put("content", "x").put("status", "done"));
        assertEquals("INVALID_ARGUMENT", execute(s, "todo2", "TodoWrite", bad).get("errorCode").asText());

        String plan = session("plan");
        assertEquals("MODE_DENIED", execute(plan, "todo3", "TodoWrite", args).get("errorCode").asText());
    }

    @Test
    public void browserPreviewIsOnDemandShowsWorkspaceFilesAndRespectsTheSetting() throws IOException {
        java.nio.file.Path root = ItFolders.fresh("proj");
        Files.writeString(root.resolve("index.html"), "<p>hi</p>");
        String s = rpc.call("session.create", RpcClient.params().put("projectRoot", root.toString())
                .put("mode", "plan")).get("sessionId").asText();
        ObjectNode args = RpcClient.params().put("path", "index.html");
        assertEquals("TOOL_NOT_ACTIVE", execute(s, "b1", "BrowserPreview", args).get("errorCode").asText());
        execute(s, "b2", "ToolSearch", RpcClient.params().put("query", "BrowserPreview"));
        JsonNode shown = execute(s, "b3", "BrowserPreview", args);
        assertTrue(shown.toString(), shown.get("ok").asBoolean());
        JsonNode event = rpc.awaitNotification("browser.preview", "for b3", e -> "b3".equals(e.path("toolCallId").asText()));
        assertEquals("index.html", event.get("path").asText());

        rpc.call("settings.update", RpcClient.params().put("browser.enabled", false));
        try {
            JsonNode off = execute(s, "b4", "BrowserPreview", args);
            assertEquals("TOOL_FAILED", off.get("errorCode").asText());
            assertTrue(off.get("content").get(0).get("text").asText().contains("disabled"));
        } finally {
            rpc.call("settings.update", RpcClient.params().put("browser.enabled", true));
        }
    }
}
