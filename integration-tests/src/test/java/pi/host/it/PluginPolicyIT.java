package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
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
import pi.host.it.plugin.ActionPluginTool;
import pi.host.it.plugin.EchoPluginTool;
import pi.host.it.plugin.PluginJars;
import pi.host.it.plugin.SideEffects;
import pi.host.it.provider.ProviderActivator;

/**
 * Plugin and MCP tools in the one pipeline, inside the real container: Plan admits only plan-safe
 * actions (the tool's code never runs for a refused one) and hides plugin tools without any, an MCP
 * tool is medium risk whatever it declares and its card says so, and tool names match exactly. The
 * plugins are Pi-Plugin bundles, granted before each test; the MCP tool is registered directly by a
 * bundle the test declares as this container's MCP bridge on the distribution record (the registry takes MCP
 * tools from the distribution's bridge only).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginPolicyIT {

    private static final String GIT = "pi.host.it.git";
    private static final String NOTES = "pi.host.it.notes";
    private static final String MCP = "pi.host.mcp"; // the only host bundle the registry lets register MCP tools
    private static final String GIT_TOOL = "plugin_it_git_git";
    private static final String NOTES_TOOL = "plugin_it_notes_notes";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    private RpcClient rpc;
    private HostCalls host;
    private Bundle git;
    private Bundle notes;
    private Bundle mcp;

    @Configuration
    public Option[] config() {
        ObjectNode git = PluginJars.descriptor("it-git", "1.0.0");
        PluginJars.actionTool(git, "git", ActionPluginTool.class, "low", new String[] {"status", "log", "commit"},
                new String[] {"status", "log"});
        ProviderBundles.plugin(GIT, "1.0.0", git.toString(), null, ActionPluginTool.class);
        ObjectNode notes = PluginJars.descriptor("it-notes", "1.0.0");
        PluginJars.textTool(notes, "notes", EchoPluginTool.class, "low");
        ProviderBundles.plugin(NOTES, "1.0.0", notes.toString(), null, EchoPluginTool.class);
        ProviderBundles.write(MCP, "read_text_file", Map.of(ProviderActivator.MCP_SERVER_HEADER, "fs",
                ProviderActivator.RISK_HEADER, "low"));
        // the MCP bridge's stand-in is part of this container's distribution: the test declares it on the
        // launcher's record, as the launcher declares the real bridge (a bundle merely named so gets nothing)
        return new Option[] {HostBundles.options(ProviderBundles.location(MCP))};
    }

    @Before
    public void install() throws BundleException {
        rpc = new RpcClient(endpoint);
        host = new HostCalls(rpc);
        SideEffects.clear("git");
        SideEffects.clear("notes");
        git = host.installAndGrant(context, GIT, "it-git", GIT_TOOL);
        notes = host.installAndGrant(context, NOTES, "it-notes", NOTES_TOOL);
        mcp = context.installBundle(ProviderBundles.location(MCP));
        mcp.start();
        host.awaitAdded("mcp_fs_read_text_file");
    }

    @After
    public void uninstall() throws BundleException {
        for (Bundle b : new Bundle[] {git, notes, mcp}) {
            if (b != null && b.getState() != Bundle.UNINSTALLED) {
                b.uninstall();
            }
        }
        host.forget("it-git");
        host.forget("it-notes");
        rpc.close();
    }

    private String session(String mode, String permissionMode) throws IOException {
        return host.session(mode, permissionMode);
    }

    private JsonNode execute(String session, String callId, String tool, ObjectNode args) {
        return host.execute(session, callId, tool, args);
    }

    private JsonNode call(String session, String callId, String tool, ObjectNode args) {
        return host.call(session, callId, tool, args);
    }

    private JsonNode activate(String session, String tool) {
        return host.activate(session, tool);
    }

    private static ObjectNode action(String action) {
        return HostCalls.action(action);
    }

    @Test
    public void planAdmitsOnlyPlanSafeActions() throws IOException {
        String agent = session("agent", "auto");
        assertEquals("ran commit", text(execute(agent, "a1", GIT_TOOL, action("commit"))));

        String plan = session("plan", "auto");
        assertEquals("ran status", text(execute(plan, "p1", GIT_TOOL, action("status"))));
        for (String refused : new String[] {"commit", "Status", "STATUS"}) {
            JsonNode r = execute(plan, "p-" + refused, GIT_TOOL, action(refused));
            assertEquals(refused, "PERMISSION_DENIED", r.get("errorCode").asText());
        }
        JsonNode missing = execute(plan, "p-missing", GIT_TOOL, RpcClient.params());
        assertEquals("PERMISSION_DENIED", missing.get("errorCode").asText());
        // the plugin's code ran for the two admitted calls only
        assertEquals(List.of("ran commit", "ran status"), SideEffects.of("git"));
        // each refusal is audited
        JsonNode rows = rpc.call("audit.query", RpcClient.params().put("sessionId", plan).put("toolName", GIT_TOOL))
                .get("rows");
        int denied = 0;
        for (JsonNode row : rows) {
            if ("PERMISSION_DENIED".equals(row.path("errorCode").asText())) {
                denied++;
                assertEquals("deny", row.get("decision").asText());
            }
        }
        assertEquals(4, denied);
    }

    @Test
    public void anActionOutsideTheDeclaredOnesIsRefusedBeforeThePluginRunsInAgentModeToo() throws IOException {
        String agent = session("agent", "auto");
        for (String refused : new String[] {"push", "Commit"}) {
            JsonNode r = execute(agent, "a-" + refused, GIT_TOOL, action(refused));
            assertEquals(refused, "PERMISSION_DENIED", r.get("errorCode").asText());
        }
        assertEquals("PERMISSION_DENIED", execute(agent, "a-none", GIT_TOOL, RpcClient.params())
                .get("errorCode").asText());
        assertEquals(List.of(), SideEffects.of("git"));
    }

    @Test
    public void planHidesAndDeniesPluginToolsWithoutPlanSafeActions() throws IOException {
        String plan = session("plan", "auto");
        JsonNode list = rpc.call("tools.list", RpcClient.params().put("sessionId", plan));
        assertFalse(list.toString().contains(NOTES_TOOL));
        assertTrue("the plan-safe plugin is offered", list.toString().contains(GIT_TOOL));

        JsonNode r = execute(plan, "n1", NOTES_TOOL, RpcClient.params().put("text", "x"));
        assertEquals("PLUGIN_DISABLED_IN_PLAN", r.get("errorCode").asText());
        assertEquals("the tool's code did not run", List.of(), SideEffects.of("notes"));
        JsonNode row = rpc.call("audit.query", RpcClient.params().put("sessionId", plan)).get("rows").get(0);
        assertEquals("mode-deny", row.get("decision").asText());
        assertEquals("PLUGIN_DISABLED_IN_PLAN", row.get("errorCode").asText());

        String goal = session("goal", "auto");
        assertEquals("PLUGIN_DISABLED_IN_PLAN", execute(goal, "n2", NOTES_TOOL,
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
        for (String name : new String[] {"write", "Write ", " Write", "\u13b3rite", "WRITE", "plugin_it_git_GIT"}) {
            JsonNode r = execute(s, "u-" + name.hashCode(), name, RpcClient.params());
            assertEquals(name, "UNKNOWN_TOOL", r.get("errorCode").asText());
        }
    }

    @Test
    public void onDemandToolsRunOnlyOnceActivatedAndANewPromptRestoresOnlyWhatItsContextProves()
            throws IOException {
        String s = session("agent", "auto");
        String git = GIT_TOOL;
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
        return HostCalls.text(result);
    }
}
