package pi.host.it;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import org.osgi.framework.ServiceReference;
import pi.host.core.rpc.RpcEndpoint;
import pi.host.it.plugin.ActionPluginTool;
import pi.host.it.plugin.EchoPluginTool;
import pi.host.it.plugin.PluginJars;
import pi.host.it.plugin.SideEffects;

/**
 * The plugin runtime in the real container: a plugin is listed but not registered until the user
 * grants it, then callable as {@code plugin_<id>_<tool>}, gone at once on revoke; an invalid plugin
 * is listed with its reasons and nothing of it is registered, whatever is granted; a bad grant
 * request is refused with its exact error and writes nothing; grants outlive the runtime and the host.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginRuntimeIT {

    private static final String NOTES = "pi.host.it.rt.notes";
    private static final String BAD_JSON = "pi.host.it.rt.badjson";
    private static final String BAD_SCHEMA = "pi.host.it.rt.badschema";
    private static final String BAD_NAME = "pi.host.it.rt.badname";
    private static final String BAD_PLAN_SAFE = "pi.host.it.rt.badplansafe";
    private static final String NO_CLASS = "pi.host.it.rt.noclass";
    private static final String UNRESOLVED = "pi.host.it.rt.unresolved";
    private static final String NOTES_TOOL = "plugin_rt_notes_jot";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    private RpcClient rpc;
    private HostCalls host;
    private final List<Bundle> installed = new ArrayList<>();

    @Configuration
    public Option[] config() {
        ObjectNode notes = PluginJars.descriptor("rt-notes", "1.2.0");
        PluginJars.textTool(notes, "jot", EchoPluginTool.class, null); // no risk: runs as medium
        ProviderBundles.plugin(NOTES, "1.2.0", notes.toString(), null, EchoPluginTool.class);

        ProviderBundles.plugin(BAD_JSON, "1.0.0", "{\"id\": \"rt-badjson\", ", null, EchoPluginTool.class);

        ObjectNode badSchema = PluginJars.descriptor("rt-badschema", "1.0.0");
        PluginJars.textTool(badSchema, "t", EchoPluginTool.class, "low").putObject("inputSchema")
                .put("type", "object").put("required", "text");
        ProviderBundles.plugin(BAD_SCHEMA, "1.0.0", badSchema.toString(), null, EchoPluginTool.class);

        ObjectNode badName = PluginJars.descriptor("rt-badname", "1.0.0");
        PluginJars.textTool(badName, "jot it", EchoPluginTool.class, "low");
        ProviderBundles.plugin(BAD_NAME, "1.0.0", badName.toString(), null, EchoPluginTool.class);

        ObjectNode badPlanSafe = PluginJars.descriptor("rt-badplansafe", "1.0.0");
        PluginJars.actionTool(badPlanSafe, "git", ActionPluginTool.class, "low", new String[] {"status", "commit"},
                new String[] {"Status"});
        ProviderBundles.plugin(BAD_PLAN_SAFE, "1.0.0", badPlanSafe.toString(), null, ActionPluginTool.class);

        ObjectNode noClass = PluginJars.descriptor("rt-noclass", "1.0.0");
        PluginJars.textTool(noClass, "t", EchoPluginTool.class, "low");
        ProviderBundles.plugin(NO_CLASS, "1.0.0", noClass.toString(), null); // the class is not packaged

        ObjectNode unresolved = PluginJars.descriptor("rt-unresolved", "1.0.0");
        PluginJars.textTool(unresolved, "t", EchoPluginTool.class, "low");
        ProviderBundles.plugin(UNRESOLVED, "1.0.0", unresolved.toString(),
                "pi.host.api;version=\"[0.2,1)\", org.example.missing", EchoPluginTool.class);
        return new Option[] {HostBundles.options()};
    }

    @Before
    public void connect() {
        rpc = new RpcClient(endpoint);
        host = new HostCalls(rpc);
        SideEffects.clear("jot");
    }

    @After
    public void cleanUp() throws BundleException {
        for (Bundle b : installed) {
            if (b.getState() != Bundle.UNINSTALLED) {
                b.uninstall();
            }
        }
        host.forget("rt-notes");
        rpc.close();
    }

    /** Installs a plugin bundle as a drop-in is: installed, never started by anyone but the runtime's rules. */
    private Bundle install(String symbolicName) throws BundleException {
        Bundle b = context.installBundle(ProviderBundles.location(symbolicName));
        installed.add(b);
        return b;
    }

    private static boolean offered(JsonNode list, String exposed) {
        return list.toString().contains("\"" + exposed + "\"");
    }

    @Test
    public void aPluginIsListedButNotRegisteredUntilGrantedThenCallableUntilRevoked() throws Exception {
        Bundle bundle = install(NOTES);
        JsonNode record = host.awaitPlugin("rt-notes", "awaiting-grant");
        assertEquals("Test plugin rt-notes", record.get("name").asText());
        assertEquals("1.2.0", record.get("version").asText());
        assertEquals(bundle.getBundleId(), record.get("bundleId").asLong());
        assertEquals(NOTES, record.get("symbolicName").asText());
        assertFalse(record.get("granted").asBoolean());
        assertEquals(0, record.get("problems").size());
        JsonNode tool = record.get("tools").get(0);
        assertEquals("jot", tool.get("name").asText());
        assertEquals(NOTES_TOOL, tool.get("exposedName").asText());
        assertEquals("medium", tool.get("risk").asText());
        assertTrue("a missing risk is a warning", record.get("warnings").toString().contains("runs as medium"));

        String session = host.session("agent", "auto");
        assertFalse("not offered before the grant", host.listed(session, NOTES_TOOL));
        assertEquals("UNKNOWN_TOOL", host.execute(session, "c0", NOTES_TOOL, RpcClient.params().put("text", "x"))
                .get("errorCode").asText());

        JsonNode granted = host.grant("rt-notes");
        assertEquals("registered", granted.get("state").asText());
        assertTrue(granted.get("granted").asBoolean());
        host.awaitAdded(NOTES_TOOL);
        assertTrue("offered on demand once granted", host.listed(session, NOTES_TOOL));
        assertEquals("hello", HostCalls.text(host.execute(session, "c1", NOTES_TOOL,
                RpcClient.params().put("text", "hello"))));
        assertEquals(List.of("hello"), SideEffects.of("jot"));

        host.revoke("rt-notes");
        host.awaitRemoved(NOTES_TOOL);
        assertEquals("awaiting-grant", host.plugin("rt-notes").get("state").asText());
        assertEquals("UNKNOWN_TOOL", host.call(session, "c2", NOTES_TOOL, RpcClient.params().put("text", "again"))
                .get("errorCode").asText());
        assertEquals("the revoked tool did not run", List.of("hello"), SideEffects.of("jot"));
    }

    @Test
    public void grantingAnUnknownPluginIsInvalidArgumentAndWritesNothing() throws Exception {
        JsonNode error = rpc.awaitResponse(rpc.send("plugins.grant", RpcClient.params().put("pluginId", "rt-nope")
                .put("capability", HostCalls.TOOL_REGISTER))).get("error");
        assertEquals(-32602, error.get("code").asInt());
        assertEquals("INVALID_ARGUMENT", error.get("data").get("errorCode").asText());
        // nothing was written: a plugin with that id arriving later waits for its own grant
        assertNull(host.plugin("rt-nope"));
        assertEquals("INVALID_ARGUMENT", rpc.awaitResponse(rpc.send("plugins.revoke", RpcClient.params()
                .put("pluginId", "rt-nope").put("capability", HostCalls.TOOL_REGISTER))).get("error").get("data")
                .get("errorCode").asText());
    }

    @Test
    public void grantingAnUnknownCapabilityIsInvalidArgumentAndWritesNothing() throws Exception {
        install(NOTES);
        host.awaitPlugin("rt-notes", "awaiting-grant");
        for (String capability : new String[] {"agent.tool.Register", "everything", ""}) {
            JsonNode error = rpc.awaitResponse(rpc.send("plugins.grant", RpcClient.params().put("pluginId", "rt-notes")
                    .put("capability", capability))).get("error");
            assertEquals(capability, "INVALID_ARGUMENT", error.get("data").get("errorCode").asText());
        }
        JsonNode record = host.plugin("rt-notes");
        assertEquals("awaiting-grant", record.get("state").asText());
        assertFalse("nothing was written", record.get("granted").asBoolean());
    }

    /** Installs an invalid plugin, grants it, and checks it stays invalid with a reason and registers nothing. */
    private void assertInvalid(String symbolicName, String pluginId, String reason) throws BundleException {
        install(symbolicName);
        JsonNode record = host.awaitPlugin(pluginId, "invalid");
        assertTrue(record.toString(), record.get("problems").toString().contains(reason));
        for (JsonNode p : record.get("problems")) {
            assertFalse("every problem says how to fix it: " + p, p.get("fix").asText().isBlank());
        }
        assertEquals(0, record.get("tools").size());
        host.grant(pluginId);
        assertEquals("invalid", host.plugin(pluginId).get("state").asText());
        for (JsonNode change : rpc.notifications("tools.changed")) {
            assertFalse("an invalid plugin's tool was registered: " + change,
                    change.toString().contains("plugin_" + pluginId.replace('-', '_')));
        }
        host.revoke(pluginId);
    }

    @Test
    public void aMalformedDescriptorIsListedInvalid() throws BundleException {
        // with no readable id the plugin is listed under its bundle's symbolic name
        assertInvalid(BAD_JSON, BAD_JSON, "not valid JSON");
    }

    @Test
    public void anInvalidSchemaIsListedInvalid() throws BundleException {
        assertInvalid(BAD_SCHEMA, "rt-badschema", "is not valid JSON Schema");
    }

    @Test
    public void aToolNameThatIsNotAllowedIsListedInvalid() throws BundleException {
        assertInvalid(BAD_NAME, "rt-badname", "tool name 'jot it' is not allowed");
    }

    @Test
    public void planSafeActionsOutsideTheActionsAreListedInvalid() throws BundleException {
        assertInvalid(BAD_PLAN_SAFE, "rt-badplansafe", "plan-safe action 'Status' is not one of");
    }

    @Test
    public void aMissingClassIsListedInvalid() throws BundleException {
        assertInvalid(NO_CLASS, "rt-noclass", "is not in the bundle");
    }

    @Test
    public void anUnresolvableBundleIsListedInvalid() throws BundleException {
        Bundle b = context.installBundle(ProviderBundles.location(UNRESOLVED));
        installed.add(b);
        JsonNode record = host.awaitPlugin("rt-unresolved", "invalid");
        assertEquals(Bundle.INSTALLED, b.getState());
        assertTrue(record.toString(), record.get("problems").toString().contains("is not resolved"));
        assertTrue(record.toString(), record.get("problems").toString().contains("imports org.example.missing"));
        assertEquals(0, record.get("tools").size());
    }

    @Test
    public void anUninstalledPluginIsGoneAndComesBackGrantedWhenInstalledAgain() throws Exception {
        Bundle bundle = install(NOTES);
        host.awaitPlugin("rt-notes", "awaiting-grant");
        host.grant("rt-notes");
        host.awaitAdded(NOTES_TOOL);
        bundle.uninstall();
        host.awaitRemoved(NOTES_TOOL);
        host.awaitPlugin("rt-notes", "removed");
        assertNull(host.plugin("rt-notes"));
        Bundle again = install(NOTES);
        // the grant is still stored: the tool is added a second time without asking again
        await("a second tools.changed adding " + NOTES_TOOL).atMost(Duration.ofSeconds(10))
                .until(() -> rpc.notifications("tools.changed").stream()
                        .filter(p -> RpcClient.contains(p.path("added"), NOTES_TOOL)).count(), n -> n == 2);
        assertEquals("registered", host.plugin("rt-notes").get("state").asText());
        assertEquals("nothing started the plugin bundle", Bundle.RESOLVED, again.getState());
    }

    @Test
    public void theGrantOutlivesARestartOfTheRuntimeAndOfTheHost() throws Exception {
        install(NOTES);
        host.awaitPlugin("rt-notes", "awaiting-grant");
        host.grant("rt-notes");
        host.awaitAdded(NOTES_TOOL);

        restart("pi.host.plugins");
        awaitState("rt-notes", "registered");

        restart("pi.host.core"); // the store is closed and opened again: the grant comes from the file
        rpc.close();
        rpc = new RpcClient(awaitEndpoint());
        host = new HostCalls(rpc);
        awaitState("rt-notes", "registered");
        String session = host.session("agent", "auto");
        assertEquals("after", HostCalls.text(host.execute(session, "r1", NOTES_TOOL,
                RpcClient.params().put("text", "after"))));
    }

    private void restart(String symbolicName) throws BundleException {
        for (Bundle b : context.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                b.stop();
                b.start();
                return;
            }
        }
        throw new AssertionError("no bundle " + symbolicName);
    }

    private RpcEndpoint awaitEndpoint() {
        return await("the host's RpcEndpoint").atMost(Duration.ofSeconds(20)).until(() -> {
            ServiceReference<RpcEndpoint> ref = context.getServiceReference(RpcEndpoint.class);
            return ref == null ? null : context.getService(ref);
        }, e -> e != null);
    }

    private void awaitState(String pluginId, String state) {
        await(pluginId + " " + state).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    JsonNode p = host.plugin(pluginId);
                    return p == null ? null : p.get("state").asText();
                }, state::equals);
    }

}
