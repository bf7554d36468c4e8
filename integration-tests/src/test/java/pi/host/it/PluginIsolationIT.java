package pi.host.it;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Set;
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
import org.osgi.framework.wiring.FrameworkWiring;
import pi.host.core.rpc.RpcEndpoint;
import pi.host.it.plugin.EchoPluginTool;
import pi.host.it.plugin.FloodingPluginTool;
import pi.host.it.plugin.HangingPluginTool;
import pi.host.it.plugin.MalformedPluginTool;
import pi.host.it.plugin.PluginJars;
import pi.host.it.plugin.SideEffects;
import pi.host.it.plugin.ThrowingPluginTool;
import pi.host.it.plugin.WaitingPluginTool;

/**
 * A plugin cannot hurt the host: one that throws, hangs past its timeout, returns no result, floods
 * output, or whose bundle is stopped or uninstalled during a call each ends with a typed result,
 * and the host keeps serving (another plugin's tool is called after each).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginIsolationIT {

    private static final String ROUGH = "pi.host.it.rough";
    private static final String WAIT = "pi.host.it.wait";
    private static final String ECHO = "plugin_iso_rough_ping";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    private RpcClient rpc;
    private HostCalls host;
    private Bundle rough;
    private Bundle wait;
    private String session;

    @Configuration
    public Option[] config() {
        ObjectNode rough = PluginJars.descriptor("iso-rough", "1.0.0");
        PluginJars.textTool(rough, "ping", EchoPluginTool.class, "low");
        PluginJars.textTool(rough, "boom", ThrowingPluginTool.class, "low");
        PluginJars.textTool(rough, "hang", HangingPluginTool.class, "low").put("timeoutMs", 300);
        PluginJars.textTool(rough, "bad", MalformedPluginTool.class, "low");
        PluginJars.textTool(rough, "flood", FloodingPluginTool.class, "low");
        ProviderBundles.plugin(ROUGH, "1.0.0", rough.toString(), null, EchoPluginTool.class,
                ThrowingPluginTool.class, HangingPluginTool.class, MalformedPluginTool.class, FloodingPluginTool.class);
        ObjectNode wait = PluginJars.descriptor("iso-wait", "1.0.0");
        PluginJars.textTool(wait, "wait", WaitingPluginTool.class, "low");
        ProviderBundles.plugin(WAIT, "1.0.0", wait.toString(), null, WaitingPluginTool.class,
                WaitingPluginTool.Finish.class);
        return new Option[] {HostBundles.options()};
    }

    @Before
    public void install() throws Exception {
        rpc = new RpcClient(endpoint);
        host = new HostCalls(rpc);
        for (String tool : new String[] {"ping", "hang", "wait"}) {
            SideEffects.clear(tool);
            Files.deleteIfExists(SideEffects.marker(tool));
        }
        rough = host.installAndGrant(context, ROUGH, "iso-rough", ECHO);
        wait = host.installAndGrant(context, WAIT, "iso-wait", "plugin_iso_wait_wait");
        session = host.session("agent", "auto");
    }

    @After
    public void uninstall() throws BundleException {
        for (Bundle b : new Bundle[] {rough, wait}) {
            if (b != null && b.getState() != Bundle.UNINSTALLED) {
                b.uninstall();
            }
        }
        host.forget("iso-rough");
        host.forget("iso-wait");
        rpc.close();
    }

    private JsonNode run(String callId, String tool) {
        return host.execute(session, callId, tool, RpcClient.params().put("text", "x"));
    }

    /** The host still serves: another plugin tool runs and answers. */
    private void assertServing(String callId) {
        assertEquals("still here", HostCalls.text(host.execute(session, callId, ECHO,
                RpcClient.params().put("text", "still here"))));
    }

    @Test
    public void aThrowingPluginIsToolFailed() {
        JsonNode r = run("t1", "plugin_iso_rough_boom");
        assertEquals("TOOL_FAILED", r.get("errorCode").asText());
        assertTrue(HostCalls.text(r), HostCalls.text(r).contains("plugin exploded"));
        assertServing("t2");
    }

    @Test
    public void aHangingPluginIsToolTimeoutAndIsCancelled() {
        JsonNode r = run("h1", "plugin_iso_rough_hang");
        assertEquals("TOOL_TIMEOUT", r.get("errorCode").asText());
        assertEquals(300, r.get("details").get("timeoutMs").asInt());
        assertServing("h2");
        await("the hanging tool saw its cancellation").atMost(Duration.ofSeconds(10))
                .until(() -> SideEffects.of("hang"), lines -> lines.equals(List.of("cancelled")));
    }

    @Test
    public void aMalformedResultIsToolFailed() {
        JsonNode r = run("m1", "plugin_iso_rough_bad");
        assertEquals("TOOL_FAILED", r.get("errorCode").asText());
        assertTrue(HostCalls.text(r), HostCalls.text(r).contains("malformed result"));
        assertServing("m2");
    }

    @Test
    public void aFloodingPluginIsBounded() {
        JsonNode r = run("f1", "plugin_iso_rough_flood");
        assertTrue(r.get("ok").asBoolean());
        assertTrue("the result was cut", r.get("truncated").asBoolean());
        assertTrue(HostCalls.text(r).length() < 4 * 1024 * 1024);
        long streamed = rpc.notifications("tool.output").stream()
                .filter(n -> "f1".equals(n.path("toolCallId").asText()))
                .mapToLong(n -> n.path("chunk").asText().length()).sum();
        assertTrue("streamed " + streamed, streamed > 0 && streamed <= 4L * 1024 * 1024);
        assertServing("f2");
    }

    /** Pins issue 13.7 in the container: a plugin's structured details are bounded like its text. */
    @Test
    public void aFloodingPluginsDetailsAreBoundedToo() {
        JsonNode r = run("f3", "plugin_iso_rough_flood");
        assertTrue(r.get("truncated").asBoolean());
        assertEquals(100_000, r.get("details").get("total").asInt());
        int rows = r.get("details").get("rows").size();
        assertTrue("rows kept: " + rows, rows > 0 && rows < 100_000);
        assertTrue("details of " + r.get("details").toString().length(),
                r.get("details").toString().length() <= 512 * 1024);
        JsonNode content = r.get("content");
        String note = content.get(content.size() - 1).get("text").asText();
        assertTrue(note, note.contains("details.rows:") && note.contains("of 100000 items kept"));
        assertServing("f4");
    }

    /** Starts the waiting tool, does {@code change} to its bundle mid-call, then lets it finish. */
    private JsonNode changeMidCall(String callId, BundleChange change) throws Exception {
        host.activate(session, "plugin_iso_wait_wait");
        int pending = rpc.send("tools.execute", HostCalls.request(session, callId, "plugin_iso_wait_wait",
                RpcClient.params().put("text", "x")));
        await("the waiting tool started").atMost(Duration.ofSeconds(10))
                .until(() -> SideEffects.of("wait"), lines -> lines.contains("started"));
        change.apply(wait);
        host.awaitRemoved("plugin_iso_wait_wait");
        Files.createDirectories(SideEffects.marker("wait").getParent());
        Files.writeString(SideEffects.marker("wait"), "go");
        return rpc.response(pending);
    }

    /** What a test does to the waiting tool's bundle. */
    private interface BundleChange {
        void apply(Bundle bundle) throws Exception;
    }

    private static void assertTyped(JsonNode r) {
        String code = r.get("errorCode").isNull() ? "ok" : r.get("errorCode").asText();
        assertTrue(r.toString(), Set.of("ok", "TOOL_FAILED", "TOOL_ABORTED").contains(code));
        assertTrue(r.toString(), r.get("content").size() > 0);
    }

    @Test
    public void aPluginUninstalledDuringACallEndsTyped() throws Exception {
        JsonNode r = changeMidCall("u1", b -> {
            b.uninstall();
            // refresh drops the uninstalled bundle's class loader: the call's last class can no longer load
            context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(b));
        });
        assertTyped(r);
        assertServing("u2");
        assertEquals("UNKNOWN_TOOL", host.call(session, "u3", "plugin_iso_wait_wait",
                RpcClient.params().put("text", "x")).get("errorCode").asText());
    }

    @Test
    public void aPluginUpdatedDuringACallEndsTyped() throws Exception {
        JsonNode r = changeMidCall("s1", Bundle::update);
        assertTyped(r);
        assertServing("s2");
    }
}
