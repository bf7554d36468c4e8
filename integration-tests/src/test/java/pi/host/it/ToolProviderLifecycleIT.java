package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.awaitility.Awaitility.await;
import static pi.host.it.RpcClient.contains;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import org.osgi.framework.BundleException;
import pi.host.core.rpc.RpcEndpoint;
import pi.host.it.plugin.EchoPluginTool;
import pi.host.it.plugin.PluginJars;

/**
 * Tools follow their plugin bundles at run time: a granted plugin's tool is announced in
 * {@code tools.changed}, uninstalling the bundle withdraws it, a plugin can never take a builtin's
 * name, and a bundle that registers a ToolProvider itself is refused with a diagnostic.
 *
 * <p>Also pins: the registry was a delayed DS component that nothing referenced, so it never
 * activated and no client ever heard {@code tools.changed}.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ToolProviderLifecycleIT {

    private static final String ECHO_BUNDLE = "pi.host.it.echo";
    private static final String SHADOW_BUNDLE = "pi.host.it.shadow";
    private static final String DIRECT_BUNDLE = "pi.host.it.direct";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    @Configuration
    public Option[] config() {
        // runs in the driver, before the container starts: the bundles are only built here, the
        // tests install them
        ObjectNode echo = PluginJars.descriptor("it-echo", "1.0.0");
        PluginJars.textTool(echo, "echo", EchoPluginTool.class, "low");
        ProviderBundles.plugin(ECHO_BUNDLE, "1.0.0", echo.toString(), null, EchoPluginTool.class);
        ObjectNode shadow = PluginJars.descriptor("it-shadow", "1.0.0");
        PluginJars.textTool(shadow, "Read", EchoPluginTool.class, "low");
        ProviderBundles.plugin(SHADOW_BUNDLE, "1.0.0", shadow.toString(), null, EchoPluginTool.class);
        ProviderBundles.write(DIRECT_BUNDLE, "direct");
        return new Option[] {HostBundles.options()};
    }

    @Test
    public void pluginToolAppearsOnGrantAndGoesOnUninstall() throws BundleException {
        String exposed = "plugin_it_echo_echo";
        try (RpcClient rpc = new RpcClient(endpoint)) {
            HostCalls host = new HostCalls(rpc);
            Bundle plugin = context.installBundle(ProviderBundles.location(ECHO_BUNDLE));
            try {
                host.awaitPlugin("it-echo", "awaiting-grant");
                host.grant("it-echo");
                host.awaitAdded(exposed);

                plugin.uninstall();
                host.awaitRemoved(exposed);
                host.awaitPlugin("it-echo", "removed");
            } finally {
                uninstallIfInstalled(plugin);
                host.forget("it-echo");
            }
        }
    }

    @Test
    public void pluginToolNamedLikeABuiltinIsExposedUnderThePluginPrefix() throws BundleException {
        String exposed = "plugin_it_shadow_Read";
        try (RpcClient rpc = new RpcClient(endpoint)) {
            HostCalls host = new HostCalls(rpc);
            Bundle plugin = context.installBundle(ProviderBundles.location(SHADOW_BUNDLE));
            try {
                host.awaitPlugin("it-shadow", "awaiting-grant");
                host.grant("it-shadow");
                JsonNode change = rpc.awaitNotification("tools.changed", "adding " + exposed,
                        p -> contains(p.path("added"), exposed));
                assertEquals("the one tool added is the prefixed name", 1, change.path("added").size());
                // the registry announces each registration at once, so by now a shadowing 'Read' would have shown
                for (JsonNode earlier : rpc.notifications("tools.changed")) {
                    assertFalse("a plugin was exposed under the builtin name: " + earlier,
                            contains(earlier.path("added"), "Read"));
                }
            } finally {
                uninstallIfInstalled(plugin);
                host.forget("it-shadow");
            }
        }
    }

    @Test
    public void aBundleRegisteringAToolProviderItselfIsRefusedWithADiagnostic() throws BundleException {
        try (RpcClient rpc = new RpcClient(endpoint)) {
            Bundle direct = context.installBundle(ProviderBundles.location(DIRECT_BUNDLE));
            try {
                direct.start();
                JsonNode refusal = await("the refusal of " + DIRECT_BUNDLE).atMost(Duration.ofSeconds(10))
                        .until(() -> refusal(rpc), r -> r != null);
                assertEquals("direct", refusal.get("tool").asText());
                assertTrue(refusal.toString(), refusal.get("reason").asText().contains("Pi-Plugin"));
                assertTrue(refusal.toString(), refusal.get("reason").asText().contains("pi.host.api.PluginTool"));
                for (JsonNode change : rpc.notifications("tools.changed")) {
                    assertFalse("a directly registered tool was announced: " + change,
                            change.path("added").toString().contains("direct"));
                }
            } finally {
                uninstallIfInstalled(direct);
            }
        }
    }

    private static JsonNode refusal(RpcClient rpc) {
        for (JsonNode r : rpc.call("plugins.list").get("refusedTools")) {
            if (DIRECT_BUNDLE.equals(r.get("bundle").asText())) {
                return r;
            }
        }
        return null;
    }

    private static void uninstallIfInstalled(Bundle bundle) throws BundleException {
        // leave the container as the next test expects it, whatever happened above
        if (bundle.getState() != Bundle.UNINSTALLED) {
            bundle.uninstall();
        }
    }
}
