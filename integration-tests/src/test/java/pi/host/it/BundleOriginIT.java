package pi.host.it;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.osgi.framework.BundleException;
import pi.host.core.rpc.RpcEndpoint;
import pi.host.it.provider.ActionTool;
import pi.host.it.provider.EchoTool;
import pi.host.it.provider.ProviderActivator;

/**
 * Issue 12.2 in the real container: a bundle installed at run time is third-party, whatever it calls
 * itself and whatever its services declare. One named like a host bundle that is installed does not
 * even resolve (the wiring guard); one named like a reserved host bundle nothing installed, or
 * declaring a plugin id or an MCP server on its service, gets its tools refused by the registry
 * (reported in {@code plugins.list}), including builtin names no tool implements yet. Every reserved
 * name is installed in the distribution, so this container leaves the Jev bundle (a leaf) out: its
 * name is the one nothing installed.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class BundleOriginIT {

    /** The symbolic names the registry gives roles to (among host bundles only). */
    private static final List<String> RESERVED = List.of("pi.host.tools", "pi.host.core", "pi.host.plugins",
            "pi.host.mcp", "pi.host.jev");
    /** The reserved host bundle this container leaves out of the distribution. */
    private static final String NOT_INSTALLED = "pi.host.jev";
    /** A builtin name nothing in the distribution implements (the desktop runtime runs TaskWait). */
    private static final String UNIMPLEMENTED = "TaskWait";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    @Configuration
    public Option[] config() {
        for (String name : RESERVED) {
            provider("origin-" + name, name, UNIMPLEMENTED, Map.of());
            provider("origin-mcp-" + name, name, "read_text_file", Map.of(ProviderActivator.MCP_SERVER_HEADER, "fs"));
        }
        provider("origin-plugin-id", "org.example.claims.plugin", "jot", Map.of(ProviderActivator.PLUGIN_ID_HEADER,
                "claimed"));
        provider("origin-mcp-server", "org.example.claims.mcp", "read_text_file",
                Map.of(ProviderActivator.MCP_SERVER_HEADER, "fs"));
        return new Option[] {HostBundles.optionsWithout(Set.of(NOT_INSTALLED))};
    }

    /** A bundle whose activator registers one ToolProvider named {@code tool}, described by {@code extra} headers. */
    private static String provider(String file, String symbolicName, String tool, Map<String, String> extra) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Bundle-Activator", ProviderActivator.class.getName());
        headers.put("Import-Package", "org.osgi.framework, pi.host.api;version=\"[0.1,1)\"");
        headers.put(ProviderActivator.TOOL_NAME_HEADER, tool);
        headers.putAll(extra);
        return ProviderBundles.raw(file, symbolicName, headers, ProviderActivator.class, EchoTool.class,
                ActionTool.class);
    }

    /** Pins: a bundle named pi.host.tools, pi.host.core or pi.host.plugins registered host-trusted tools. */
    @Test
    public void aBundleNamedLikeAnInstalledHostBundleNeverResolves() throws BundleException {
        try (RpcClient rpc = new RpcClient(endpoint)) {
            for (String name : RESERVED) {
                if (name.equals(NOT_INSTALLED)) {
                    continue;
                }
                Bundle b = context.installBundle(ProviderBundles.location("origin-" + name));
                try {
                    b.start();
                    fail("a third-party bundle named " + name + " resolved");
                } catch (BundleException expected) {
                    assertEquals(Bundle.INSTALLED, b.getState());
                } finally {
                    b.uninstall();
                }
                assertTrue(name, refusedBundles(rpc).contains("takes the symbolic name " + name + " of a host bundle"));
            }
            assertNothingAnnounced(rpc);
        }
    }

    /**
     * Pins: a bundle named like a reserved host bundle nothing installed (pi.host.mcp, before the bridge
     * shipped) got MCP or builtin tools: trust comes from the launcher's record, not the name.
     */
    @Test
    public void aBundleNamedLikeAReservedHostBundleGetsNoHostTrust() throws BundleException {
        try (RpcClient rpc = new RpcClient(endpoint)) {
            startAndAwaitRefusal(rpc, "origin-" + NOT_INSTALLED);
            startAndAwaitRefusal(rpc, "origin-mcp-" + NOT_INSTALLED);
            assertNothingAnnounced(rpc);
        }
    }

    /** Pins: a ToolProvider with pi.plugin.id or pi.mcp.server was trusted as a plugin or MCP tool by its properties. */
    @Test
    public void servicePropertiesClaimingAnOriginGiveNoTrust() throws BundleException {
        try (RpcClient rpc = new RpcClient(endpoint)) {
            startAndAwaitRefusal(rpc, "origin-plugin-id");
            startAndAwaitRefusal(rpc, "origin-mcp-server");
            assertNothingAnnounced(rpc);
        }
    }

    private static String refusedBundles(RpcClient rpc) {
        return rpc.call("plugins.list").get("refusedBundles").toString();
    }

    /** Starts the bundle written as {@code file} and waits for the registry to refuse its tool for its origin. */
    private void startAndAwaitRefusal(RpcClient rpc, String file) throws BundleException {
        Bundle b = context.installBundle(ProviderBundles.location(file));
        try {
            b.start();
            long id = b.getBundleId();
            await("the registry's refusal of bundle " + file).atMost(Duration.ofSeconds(10)).until(() -> {
                for (JsonNode r : rpc.call("plugins.list").get("refusedTools")) {
                    if (r.get("bundleId").asLong() == id && r.get("reason").asText().contains("gets no host trust")) {
                        return r;
                    }
                }
                return null;
            }, r -> r != null);
        } finally {
            b.uninstall();
        }
    }

    private static void assertNothingAnnounced(RpcClient rpc) {
        for (JsonNode change : rpc.notifications("tools.changed")) {
            String added = change.path("added").toString();
            assertFalse("a third-party tool was registered: " + change, added.contains(UNIMPLEMENTED)
                    || added.contains("mcp_") || added.contains("plugin_claimed"));
        }
    }
}
