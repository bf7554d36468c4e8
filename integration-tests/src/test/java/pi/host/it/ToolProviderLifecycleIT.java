package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static pi.host.it.RpcClient.contains;

import com.fasterxml.jackson.databind.JsonNode;
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

/**
 * Tools follow their provider bundles at run time: installing a plugin bundle announces its tool
 * in {@code tools.changed}, uninstalling it withdraws the tool, and a plugin can never take a
 * builtin's name.
 *
 * <p>Also pins: the registry was a delayed DS component that nothing referenced, so it never
 * activated and no client ever heard {@code tools.changed}.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ToolProviderLifecycleIT {

    private static final String ECHO_BUNDLE = "pi.host.it.echo";
    private static final String SHADOW_BUNDLE = "pi.host.it.shadow";

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    @Configuration
    public Option[] config() {
        // runs in the driver, before the container starts: the bundles are only built here, the
        // tests install them
        ProviderBundles.write(ECHO_BUNDLE, "echo");
        ProviderBundles.write(SHADOW_BUNDLE, "Read");
        return new Option[] {HostBundles.options()};
    }

    @Test
    public void pluginToolAppearsOnInstallAndGoesOnUninstall() throws BundleException {
        // plugin_<bundle symbolic name, non-alphanumerics as '_'>_<tool name>
        String exposed = "plugin_pi_host_it_echo_echo";
        try (RpcClient rpc = new RpcClient(endpoint)) {
            Bundle provider = context.installBundle(ProviderBundles.location(ECHO_BUNDLE));
            try {
                provider.start();
                rpc.awaitNotification("tools.changed", "adding " + exposed, p -> contains(p.path("added"), exposed));

                provider.uninstall();
                rpc.awaitNotification("tools.changed", "removing " + exposed,
                        p -> contains(p.path("removed"), exposed));
            } finally {
                uninstallIfInstalled(provider);
            }
        }
    }

    @Test
    public void pluginToolNamedLikeABuiltinIsExposedUnderThePluginPrefix() throws BundleException {
        String exposed = "plugin_pi_host_it_shadow_Read";
        try (RpcClient rpc = new RpcClient(endpoint)) {
            Bundle provider = context.installBundle(ProviderBundles.location(SHADOW_BUNDLE));
            try {
                provider.start();
                JsonNode change = rpc.awaitNotification("tools.changed", "adding " + exposed,
                        p -> contains(p.path("added"), exposed));
                assertEquals("the one tool added is the prefixed name", 1, change.path("added").size());
                // the registry announces each registration at once, so by now a shadowing 'Read' would have shown
                for (JsonNode earlier : rpc.notifications("tools.changed")) {
                    assertFalse("a plugin was exposed under the builtin name: " + earlier,
                            contains(earlier.path("added"), "Read"));
                }
            } finally {
                uninstallIfInstalled(provider);
            }
        }
    }

    private static void uninstallIfInstalled(Bundle bundle) throws BundleException {
        // leave the container as the next test expects it, whatever happened above
        if (bundle.getState() != Bundle.UNINSTALLED) {
            bundle.uninstall();
        }
    }
}
