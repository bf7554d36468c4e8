package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
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
import pi.host.it.plugin.EchoPluginTool;
import pi.host.it.plugin.PluginJars;

/**
 * Delegate calls in the one pipeline, inside the real container (spec §10.2): the host resolves a
 * delegate's tools and permission scope from its definition file, never from what the client sends;
 * a call outside the scope is refused before any card and audited with the delegate's name; with
 * {@code inherit} a delegate reaches a plugin tool without ToolSearch; a scope overrides only the
 * permission mode; grants stay per session.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DelegationIT {

    private static final String NOTES = "pi.host.it.delegnotes";
    private static final String PLUGIN_ID = "it-delegnotes";
    private static final String PLUGIN_TOOL = "plugin_it_delegnotes_notes";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    private RpcClient rpc;
    private HostCalls host;
    private Bundle notes;

    @Configuration
    public Option[] config() {
        ObjectNode descriptor = PluginJars.descriptor(PLUGIN_ID, "1.0.0");
        PluginJars.textTool(descriptor, "notes", EchoPluginTool.class, "low");
        ProviderBundles.plugin(NOTES, "1.0.0", descriptor.toString(), null, EchoPluginTool.class);
        return new Option[] {HostBundles.options()};
    }

    @Before
    public void install() throws BundleException {
        rpc = new RpcClient(endpoint);
        host = new HostCalls(rpc);
        notes = host.installAndGrant(context, NOTES, PLUGIN_ID, PLUGIN_TOOL);
    }

    @After
    public void uninstall() throws BundleException {
        if (notes != null && notes.getState() != Bundle.UNINSTALLED) {
            notes.uninstall();
        }
        host.forget(PLUGIN_ID);
        rpc.close();
    }

    /** A project with the given definitions under .pi/agents (file name = name). */
    private Path project(String... nameAndFrontMatter) throws IOException {
        Path root = ItFolders.fresh("proj").toRealPath();
        Path agents = Files.createDirectories(root.resolve(".pi/agents"));
        for (int i = 0; i < nameAndFrontMatter.length; i += 2) {
            Files.writeString(agents.resolve(nameAndFrontMatter[i] + ".md"), "---\nname: " + nameAndFrontMatter[i]
                    + "\ndescription: the " + nameAndFrontMatter[i] + "\n" + nameAndFrontMatter[i + 1] + "---\nbody\n");
        }
        return root;
    }

    private String session(Path root, String mode, String permissionMode) {
        return rpc.call("session.create", RpcClient.params().put("projectRoot", root.toString()).put("mode", mode)
                .put("permissionMode", permissionMode)).get("sessionId").asText();
    }

    private ObjectNode request(String session, String callId, String tool, ObjectNode args, String delegate,
            String source, String claimedPermission) {
        ObjectNode p = RpcClient.params().put("sessionId", session).put("turnId", "t1").put("toolCallId", callId)
                .put("name", tool);
        p.set("arguments", args);
        if (delegate != null) {
            ObjectNode d = p.putObject("delegate").put("name", delegate).put("source", source)
                    .put("delegationId", "dl_" + callId);
            if (claimedPermission != null) {
                d.put("permission", claimedPermission);
            }
            // what the client claims the delegate may call is not what the host enforces
            d.putArray("tools").add("Read").add("Write").add("Bash").add(PLUGIN_TOOL);
        }
        return p;
    }

    private JsonNode delegateCall(String session, String callId, String tool, ObjectNode args, String delegate,
            String source) {
        return rpc.call("tools.execute", request(session, callId, tool, args, delegate, source, null));
    }

    private JsonNode auditRow(String session, String callId) {
        for (JsonNode row : rpc.call("audit.query", RpcClient.params().put("sessionId", session)).get("rows")) {
            if (callId.equals(row.get("toolCallId").asText())) {
                return row;
            }
        }
        throw new AssertionError("no audit row for " + callId);
    }

    private boolean carded(String callId) {
        return rpc.notifications("permission.request").stream()
                .anyMatch(c -> callId.equals(c.path("toolCallId").asText()));
    }

    private JsonNode cardFor(String callId) {
        return rpc.awaitNotification("permission.request", "for " + callId,
                c -> callId.equals(c.path("toolCallId").asText()));
    }

    private void resolve(JsonNode card, String decision) {
        rpc.call("permissions.resolve", RpcClient.params().put("requestId", card.get("requestId").asText())
                .put("decision", decision));
    }

    private static ObjectNode write(String path, String content) {
        return RpcClient.params().put("path", path).put("content", content);
    }

    @Test
    public void aCallOutsideTheDelegatesToolsIsRefusedBeforeAnyCardAndAudited() throws IOException {
        Path root = project("reviewer", "tools: [Read, Grep]\n");
        Files.writeString(root.resolve("a.txt"), "hello\n");
        String s = session(root, "agent", "auto");

        JsonNode read = delegateCall(s, "r1", "Read", RpcClient.params().put("path", "a.txt"), "reviewer", "project");
        assertTrue(read.toString(), read.get("ok").asBoolean());

        JsonNode denied = rpc.call("tools.execute", request(s, "w1", "Write", write("x.txt", "x"), "reviewer",
                "project", "auto"));
        assertEquals("TOOL_DENIED", denied.get("errorCode").asText());
        assertTrue(denied.toString(), denied.toString().contains("not among the tools of delegate 'reviewer'"));
        assertFalse("nothing was written", Files.exists(root.resolve("x.txt")));
        assertFalse("refused before any card", carded("w1"));
        JsonNode row = auditRow(s, "w1");
        assertEquals("reviewer", row.get("delegate").asText());
        assertEquals("deny", row.get("decision").asText());
        assertEquals("delegate.scope", row.get("rule").asText());
        assertEquals("TOOL_DENIED", row.get("errorCode").asText());

        // a delegate name or source the session does not have runs nothing
        JsonNode unknown = delegateCall(s, "u1", "Read", RpcClient.params().put("path", "a.txt"), "reviewer", "user");
        assertEquals("TOOL_DENIED", unknown.get("errorCode").asText());
        assertEquals("delegate.unknown", auditRow(s, "u1").get("rule").asText());
        // and a delegate never starts another
        JsonNode task = delegateCall(s, "t1", "Task", RpcClient.params().put("subagent", "reviewer")
                .put("prompt", "again"), "reviewer", "project");
        assertEquals("TOOL_DENIED", task.get("errorCode").asText());
    }

    @Test
    public void withInheritADelegateCallsAPluginToolWithoutToolSearch() throws IOException {
        Path root = project("inheritor", "tools: inherit\n", "reader", "tools: [Read, plugin_x_y]\n");
        String s = session(root, "agent", "auto");
        ObjectNode args = RpcClient.params().put("text", "hi");

        assertEquals("the session itself must activate it first", "TOOL_NOT_ACTIVE",
                rpc.call("tools.execute", request(s, "p0", PLUGIN_TOOL, args, null, null, null))
                        .get("errorCode").asText());
        JsonNode ran = delegateCall(s, "p1", PLUGIN_TOOL, args, "inheritor", "project");
        assertTrue(ran.toString(), ran.get("ok").asBoolean());
        assertEquals("hi", ran.get("content").get(0).get("text").asText());
        assertEquals("inheritor", auditRow(s, "p1").get("delegate").asText());

        // without inherit the parent's plugin tool is out of reach
        JsonNode refused = delegateCall(s, "p2", PLUGIN_TOOL, args, "reader", "project");
        assertEquals("TOOL_DENIED", refused.get("errorCode").asText());
        JsonNode listed = rpc.call("subagents.list", RpcClient.params().put("sessionId", s));
        JsonNode reader = listed.get("subagents").findParents("name").stream()
                .filter(n -> "reader".equals(n.get("name").asText())).findFirst().orElseThrow();
        assertEquals("[\"Read\"]", reader.get("tools").toString());
        assertTrue(reader.get("warnings").toString().contains("only through 'inherit'"));

        // the delegate's own tools.list: its tools only, the plugin tool's schema included
        ObjectNode list = RpcClient.params().put("sessionId", s);
        list.putObject("delegate").put("name", "inheritor").put("source", "project");
        JsonNode mine = rpc.call("tools.list", list);
        assertTrue(mine.get("tools").toString().contains(PLUGIN_TOOL));
        assertFalse(mine.get("tools").toString().contains("\"ToolSearch\""));
        assertFalse(mine.get("tools").toString().contains("\"Task\""));
        assertEquals(0, mine.get("onDemand").size());
    }

    @Test
    public void aProjectDefinitionRunsUnderTheSessionsModeWhateverTheClientClaims() throws IOException {
        Path root = project("writer", "tools: [Write]\npermission: auto\n");
        String s = session(root, "agent", "ask");
        int pending = rpc.send("tools.execute", request(s, "w1", "Write", write("w.txt", "x"), "writer", "project",
                "auto"));
        JsonNode card = cardFor("w1");
        assertEquals("writer", card.get("delegate").asText());
        resolve(card, "deny");
        JsonNode denied = rpc.response(pending);
        assertEquals("TOOL_DENIED", denied.get("errorCode").asText());
        assertFalse(Files.exists(root.resolve("w.txt")));
        assertEquals("writer", auditRow(s, "w1").get("delegate").asText());
    }

    @Test
    public void aUserScopeOverridesOnlyThePermissionMode() throws IOException {
        Path root = project();
        String s = session(root, "agent", "ask");
        Path userDir = Paths.get(rpc.call("subagents.list", RpcClient.params().put("sessionId", s))
                .get("locations").get("user").asText());
        Files.createDirectories(userDir);
        Files.writeString(userDir.resolve("editor.md"), "---\nname: editor\ndescription: edits\n"
                + "tools: [Read, Write]\npermission: accept-edits\n---\n");
        try {
            // accept-edits: a workspace Write runs without a card, although the session asks
            JsonNode written = rpc.call("tools.execute", request(s, "e1", "Write", write("e.txt", "x"), "editor",
                    "user", "inherit"));
            assertTrue(written.toString(), written.get("ok").asBoolean());
            assertFalse(carded("e1"));

            // the external-path gate stays: an outside path still needs a card
            Path outside = ItFolders.fresh("outside").resolve("o.txt");
            int pending = rpc.send("tools.execute", request(s, "e2", "Write", write(outside.toString(), "x"),
                    "editor", "user", null));
            JsonNode card = cardFor("e2");
            assertEquals("editor", card.get("delegate").asText());
            assertEquals(outside.toString(), card.get("externalPath").asText());
            resolve(card, "deny");
            assertEquals("TOOL_DENIED", rpc.response(pending).get("errorCode").asText());
            assertFalse(Files.exists(outside));

            // the contract modes' hard deny stays
            String plan = session(root, "plan", "auto");
            JsonNode inPlan = delegateCall(plan, "e3", "Write", write("p.txt", "x"), "editor", "user");
            assertEquals("MODE_DENIED", inPlan.get("errorCode").asText());
            assertFalse(Files.exists(root.resolve("p.txt")));
        } finally {
            Files.delete(userDir.resolve("editor.md"));
        }
    }

    @Test
    public void oneDelegatesAllowSessionAppliesToTheWholeSession() throws IOException {
        Path root = project();
        String s = session(root, "agent", "ask");
        int pending = rpc.send("tools.execute", request(s, "b1", "Bash", RpcClient.params().put("command", "echo one"),
                "general", "builtin", null));
        JsonNode card = cardFor("b1");
        assertEquals("general", card.get("delegate").asText());
        resolve(card, "allow-session");
        assertTrue(rpc.response(pending).get("ok").asBoolean());

        JsonNode parent = rpc.call("tools.execute", request(s, "b2", "Bash", RpcClient.params().put("command",
                "echo two"), null, null, null));
        assertTrue(parent.get("ok").asBoolean());
        assertFalse("the parent uses the delegate's grant", carded("b2"));
        assertNull(auditRow(s, "b2").get("delegate").textValue());
        assertEquals("user:allow-session", auditRow(s, "b1").get("source").asText());

        // another session never sees it
        String other = session(root, "agent", "ask");
        int again = rpc.send("tools.execute", request(other, "b3", "Bash", RpcClient.params().put("command",
                "echo three"), null, null, null));
        resolve(cardFor("b3"), "deny");
        assertEquals("TOOL_DENIED", rpc.response(again).get("errorCode").asText());
    }
}
