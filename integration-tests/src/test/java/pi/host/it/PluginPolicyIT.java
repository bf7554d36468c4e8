package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
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
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import pi.host.core.rpc.RpcEndpoint;
import pi.host.it.provider.ProviderActivator;

/**
 * Plugin and MCP tools in the one pipeline, inside the real container: Plan admits only plan-safe
 * actions and hides plugin tools without any, an MCP tool is medium risk whatever it declares and
 * its card says so, and tool names match exactly.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginPolicyIT {

    private static final String GIT = "pi.host.it.git";
    private static final String NOTES = "pi.host.it.notes";
    private static final String MCP = "pi.host.mcp"; // the only bundle the registry lets register MCP tools

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    private RpcClient rpc;
    private Bundle git;
    private Bundle notes;
    private Bundle mcp;

    @Configuration
    public Option[] config() {
        ProviderBundles.write(GIT, "git", Map.of(ProviderActivator.ACTIONS_HEADER, "status,log,commit",
                ProviderActivator.PLAN_SAFE_HEADER, "status,log"));
        ProviderBundles.write(NOTES, "notes", Map.of(ProviderActivator.RISK_HEADER, "low"));
        ProviderBundles.write(MCP, "read_text_file", Map.of(ProviderActivator.MCP_SERVER_HEADER, "fs",
                ProviderActivator.RISK_HEADER, "low"));
        return new Option[] {HostBundles.options()};
    }

    @Before
    public void install() throws BundleException {
        rpc = new RpcClient(endpoint);
        git = start(GIT, "plugin_pi_host_it_git_git");
        notes = start(NOTES, "plugin_pi_host_it_notes_notes");
        mcp = start(MCP, "mcp_fs_read_text_file");
    }

    @After
    public void uninstall() throws BundleException {
        for (Bundle b : new Bundle[] {git, notes, mcp}) {
            if (b != null && b.getState() != Bundle.UNINSTALLED) {
                b.uninstall();
            }
        }
        rpc.close();
    }

    private Bundle start(String symbolicName, String exposed) throws BundleException {
        Bundle b = context.installBundle(ProviderBundles.location(symbolicName));
        b.start();
        rpc.awaitNotification("tools.changed", "adding " + exposed, p -> RpcClient.contains(p.path("added"), exposed));
        return b;
    }

    private String session(String mode, String permissionMode) throws IOException {
        ObjectNode p = RpcClient.params().put("projectRoot", Files.createTempDirectory("proj").toString())
                .put("mode", mode).put("permissionMode", permissionMode);
        return rpc.call("session.create", p).get("sessionId").asText();
    }

    /** Runs a call; plugin and MCP tools are on-demand, so they are activated first with ToolSearch. */
    private JsonNode execute(String session, String callId, String tool, ObjectNode args) {
        if (tool.startsWith("plugin_") || tool.startsWith("mcp_")) {
            activate(session, tool);
        }
        return call(session, callId, tool, args);
    }

    private JsonNode call(String session, String callId, String tool, ObjectNode args) {
        ObjectNode p = RpcClient.params().put("sessionId", session).put("turnId", "t1").put("toolCallId", callId)
                .put("name", tool);
        p.set("arguments", args);
        return rpc.call("tools.execute", p);
    }

    private JsonNode activate(String session, String tool) {
        return call(session, "search-" + tool + "-" + System.nanoTime(), "ToolSearch",
                RpcClient.params().put("query", tool));
    }

    private static ObjectNode action(String action) {
        return RpcClient.params().put("action", action);
    }

    @Test
    public void planAdmitsOnlyPlanSafeActions() throws IOException {
        String agent = session("agent", "auto");
        assertEquals("ran commit", text(execute(agent, "a1", "plugin_pi_host_it_git_git", action("commit"))));

        String plan = session("plan", "auto");
        assertEquals("ran status", text(execute(plan, "p1", "plugin_pi_host_it_git_git", action("status"))));
        for (String refused : new String[] {"commit", "Status", "STATUS"}) {
            JsonNode r = execute(plan, "p-" + refused, "plugin_pi_host_it_git_git", action(refused));
            assertEquals(refused, "PERMISSION_DENIED", r.get("errorCode").asText());
        }
        JsonNode missing = execute(plan, "p-missing", "plugin_pi_host_it_git_git", RpcClient.params());
        assertEquals("PERMISSION_DENIED", missing.get("errorCode").asText());
    }

    @Test
    public void planHidesAndDeniesPluginToolsWithoutPlanSafeActions() throws IOException {
        String plan = session("plan", "auto");
        JsonNode list = rpc.call("tools.list", RpcClient.params().put("sessionId", plan));
        assertFalse(list.toString().contains("plugin_pi_host_it_notes_notes"));
        assertTrue("the plan-safe plugin is offered", list.toString().contains("plugin_pi_host_it_git_git"));

        JsonNode r = execute(plan, "n1", "plugin_pi_host_it_notes_notes", RpcClient.params().put("text", "x"));
        assertEquals("PLUGIN_DISABLED_IN_PLAN", r.get("errorCode").asText());
        JsonNode row = rpc.call("audit.query", RpcClient.params().put("sessionId", plan)).get("rows").get(0);
        assertEquals("mode-deny", row.get("decision").asText());
        assertEquals("PLUGIN_DISABLED_IN_PLAN", row.get("errorCode").asText());

        String goal = session("goal", "auto");
        assertEquals("PLUGIN_DISABLED_IN_PLAN", execute(goal, "n2", "plugin_pi_host_it_notes_notes",
                RpcClient.params().put("text", "x")).get("errorCode").asText());
    }

    @Test
    public void mcpToolsAreMediumRiskWhateverTheyDeclareAndDeniedInPlan() throws IOException {
        String ask = session("agent", "ask");
        activate(ask, "mcp_fs_read_text_file");
        ObjectNode p = RpcClient.params().put("sessionId", ask).put("turnId", "t1").put("toolCallId", "m1")
                .put("name", "mcp_fs_read_text_file");
        p.set("arguments", RpcClient.params().put("text", "x"));
        int pending = rpc.send("tools.execute", p);
        JsonNode card = rpc.awaitNotification("permission.request", "for m1",
                c -> "m1".equals(c.path("toolCallId").asText()));
        assertEquals("medium", card.get("risk").asText());
        assertEquals("MCP server tool requires approval", card.get("reason").asText());
        rpc.call("permissions.resolve", RpcClient.params().put("requestId", card.get("requestId").asText())
                .put("decision", "deny"));
        JsonNode denied = rpc.response(pending);
        assertEquals("TOOL_DENIED", denied.get("errorCode").asText());
        assertTrue(text(denied).contains("user denied permission"));

        String auto = session("agent", "auto");
        assertEquals("x", text(execute(auto, "m2", "mcp_fs_read_text_file", RpcClient.params().put("text", "x"))));

        String plan = session("plan", "auto");
        assertEquals("MODE_DENIED", execute(plan, "m3", "mcp_fs_read_text_file",
                RpcClient.params().put("text", "x")).get("errorCode").asText());
    }

    @Test
    public void toolNamesMatchExactly() throws IOException {
        String s = session("agent", "auto");
        for (String name : new String[] {"write", "Write ", " Write", "\u13b3rite", "WRITE", "plugin_pi_host_it_git_GIT"}) {
            JsonNode r = execute(s, "u-" + name.hashCode(), name, RpcClient.params());
            assertEquals(name, "UNKNOWN_TOOL", r.get("errorCode").asText());
        }
    }

    @Test
    public void onDemandToolsRunOnlyOnceActivatedAndANewPromptRestoresOnlyWhatItsContextProves()
            throws IOException {
        String s = session("agent", "auto");
        String git = "plugin_pi_host_it_git_git";
        assertEquals("TOOL_NOT_ACTIVE", call(s, "d1", git, action("status")).get("errorCode").asText());
        JsonNode list = rpc.call("tools.list", RpcClient.params().put("sessionId", s));
        assertTrue(list.get("onDemand").toString().contains(git));
        assertFalse(list.get("tools").toString().contains(git));

        JsonNode search = activate(s, git);
        assertEquals(git, search.get("details").get("addedToolNames").get(0).asText());
        list = rpc.call("tools.list", RpcClient.params().put("sessionId", s));
        assertTrue("an active tool's schema is listed", list.get("tools").toString().contains(git));
        assertEquals("ran status", text(call(s, "d2", git, action("status"))));

        // a new prompt without evidence clears the activation
        rpc.call("prompt.begin", RpcClient.params().put("sessionId", s).put("turnId", "t2"));
        assertEquals("TOOL_NOT_ACTIVE", call(s, "d3", git, action("status")).get("errorCode").asText());

        // a new prompt whose context holds the successful search restores it
        ObjectNode begin = RpcClient.params().put("sessionId", s).put("turnId", "t3");
        begin.putArray("context").addObject().put("toolName", "ToolSearch").put("ok", true)
                .putObject("details").putArray("addedToolNames").add(git);
        JsonNode restored = rpc.call("prompt.begin", begin);
        assertEquals(git, restored.get("activatedTools").get(0).asText());
        assertEquals("ran log", text(call(s, "d4", git, action("log"))));
    }

    @Test
    public void aComposerMcpSelectionActivatesTheServersToolsOrFailsWithoutFallback() throws IOException {
        String s = session("agent", "auto");
        ObjectNode begin = RpcClient.params().put("sessionId", s).put("turnId", "t1");
        begin.putObject("mcpSelection").putArray("serverIds").add("fs");
        JsonNode activated = rpc.call("prompt.begin", begin).get("activatedTools");
        assertEquals("[\"mcp_fs_read_text_file\"]", activated.toString());
        assertEquals("x", text(call(s, "s1", "mcp_fs_read_text_file", RpcClient.params().put("text", "x"))));

        ObjectNode unknown = RpcClient.params().put("sessionId", s).put("turnId", "t2");
        unknown.putObject("mcpSelection").putArray("serverIds").add("nope");
        int id = rpc.send("prompt.begin", unknown);
        JsonNode error = rpc.awaitResponse(id);
        assertEquals("MCP_SELECTION_INVALID", error.get("error").get("data").get("errorCode").asText());
        assertEquals("the failed selection changed nothing", "x",
                text(call(s, "s2", "mcp_fs_read_text_file", RpcClient.params().put("text", "x"))));

        String plan = session("plan", "auto");
        ObjectNode inPlan = RpcClient.params().put("sessionId", plan).put("turnId", "t1");
        inPlan.putObject("mcpSelection").putArray("serverIds").add("fs");
        JsonNode planError = rpc.awaitResponse(rpc.send("prompt.begin", inPlan));
        assertEquals("MCP_SELECTION_INVALID", planError.get("error").get("data").get("errorCode").asText());
    }

    private static String text(JsonNode result) {
        return result.get("content").get(0).get("text").asText();
    }
}
