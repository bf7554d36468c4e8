package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.awaitility.Awaitility.await;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import pi.host.core.rpc.RpcEndpoint;

/**
 * The MCP bridge is a bundle like the others: stopping it removes its servers' tools (and ends the server
 * processes), starting or updating it at run time brings them back, with the host running throughout.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class McpBridgeUpdateIT {

    private static final String BRIDGE = "pi.host.mcp";
    private static final String ECHO = "mcp_everything_echo";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    @Configuration
    public Option[] config() {
        // runs in the driver: a data dir whose mcp.json configures server-everything from bench/node_modules
        Path data;
        try {
            String npm = System.getProperty("pi.host.npm");
            Path server = Paths.get(npm, "@modelcontextprotocol", "server-everything", "dist", "index.js");
            if (!Files.isRegularFile(server)) {
                throw new IllegalStateException("the MCP tests need bench/node_modules (" + npm
                        + "): run `npm ci --prefix bench` (.ci/run does)");
            }
            Path base = Paths.get(System.getProperty(ProviderBundles.DIRECTORY)).toAbsolutePath().getParent();
            Files.createDirectories(base);
            data = Files.createTempDirectory(base, "mcp-data-");
            Files.writeString(data.resolve("mcp.json"), "{\"mcpServers\":{\"everything\":{\"command\":\"node\","
                    + "\"args\":[\"" + server + "\",\"stdio\"]}}}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Option[] {HostBundles.options(), frameworkProperty("pi.host.data").value(data.toString())};
    }

    @Test
    public void stoppingAndUpdatingTheBridgeRemovesAndRestoresItsTools() throws Exception {
        try (RpcClient rpc = new RpcClient(endpoint)) {
            rpc.call("host.info"); // servers start once the host answered its first request
            HostCalls host = new HostCalls(rpc);
            long pid = awaitReady(rpc).get("pid").asLong();
            String session = host.session("agent", "auto");
            assertTrue(host.listed(session, ECHO));
            JsonNode echoed = host.execute(session, "c1", ECHO, RpcClient.params().put("message", "one"));
            assertEquals("Echo: one", HostCalls.text(echoed));

            Bundle bridge = bundle();
            bridge.stop();
            assertFalse(host.listed(session, ECHO));
            assertEquals(0, rpc.call("mcp.list").get("servers").size());
            await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pid).isEmpty());

            bridge.start();
            long restarted = awaitReady(rpc).get("pid").asLong();
            assertTrue(restarted != pid);
            assertEquals("Echo: two", HostCalls.text(host.execute(session, "c2", ECHO,
                    RpcClient.params().put("message", "two"))));

            bridge.update();
            long updated = awaitReady(rpc).get("pid").asLong();
            assertTrue("the update stopped the server and started a new one", updated != restarted);
            await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(restarted).isEmpty());
            assertEquals(Bundle.ACTIVE, bundle().getState());
            assertEquals("Echo: three", HostCalls.text(host.execute(session, "c3", ECHO,
                    RpcClient.params().put("message", "three"))));
        }
    }

    private Bundle bundle() {
        for (Bundle b : context.getBundles()) {
            if (BRIDGE.equals(b.getSymbolicName())) {
                return b;
            }
        }
        throw new AssertionError(BRIDGE + " is not installed");
    }

    private static JsonNode awaitReady(RpcClient rpc) {
        JsonNode[] server = {null};
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            for (JsonNode s : rpc.call("mcp.list").get("servers")) {
                if ("everything".equals(s.get("id").asText()) && "ready".equals(s.get("state").asText())
                        && RpcClient.contains(s.get("tools"), ECHO)) {
                    server[0] = s;
                    return true;
                }
            }
            return false;
        });
        assertNotNull(server[0]);
        return server[0];
    }
}
