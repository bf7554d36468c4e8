package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;
import pi.host.core.rpc.RpcEndpoint;
import pi.host.it.plugin.SideEffects;

/**
 * Issue 12.4 in the real container: the host's wiring guard keeps every bundle that is not the host's
 * from rewiring it, whoever installs it. A fragment of a host bundle never attaches, not even when its
 * host is refreshed; Require-Bundle of a host bundle and an import of the host SPI with its attribute
 * copied do not resolve; a host bundle is wired to the distribution's package even when a
 * third-party bundle offers a higher version of it; and a bundle that takes a host bundle's name never
 * resolves, nor keeps any other bundle from resolving while it stays installed.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class WiringGuardIT {

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] config() {
        ProviderBundles.raw("guard-spi", "org.example.guard.spi",
                Map.of("Import-Package", "pi.host.spi;pi.host.spi=builtin"));
        ProviderBundles.raw("guard-require", "org.example.guard.require", Map.of("Require-Bundle", "pi.host.core"));
        // a fragment of the builtin tools: refreshing them (below) restarts no bundle the test itself uses
        ProviderBundles.raw("guard-fragment", "org.example.guard.fragment", Map.of("Fragment-Host", "pi.host.tools"),
                SideEffects.class);
        ProviderBundles.raw("guard-shadow", "org.example.guard.shadow",
                Map.of("Export-Package", "org.slf4j;version=\"9.0.0\""));
        ProviderBundles.raw("guard-named", "pi.host.tools", Map.of("Import-Package", "org.osgi.framework"));
        ProviderBundles.raw("guard-plain", "org.example.guard.plain", Map.of("Import-Package", "org.osgi.framework"));
        ProviderBundles.raw("guard-later", "org.example.guard.later", Map.of("Import-Package", "org.osgi.framework"));
        ProviderBundles.raw("guard-consumer", "org.example.guard.consumer",
                Map.of("Import-Package", "org.slf4j;version=\"[1,10)\""));
        // the consumer stands for a host bundle: the test declares it on the distribution record
        return new Option[] {HostBundles.options(ProviderBundles.location("guard-consumer"))};
    }

    private Bundle install(String file) throws BundleException {
        return context.installBundle(ProviderBundles.location(file));
    }

    private FrameworkWiring frameworkWiring() {
        return context.getBundle(0).adapt(FrameworkWiring.class);
    }

    /** plugins.list's refusedBundles. */
    private String refusedBundles() {
        RpcEndpoint current = await("the host's RpcEndpoint").atMost(Duration.ofSeconds(30)).until(() -> {
            ServiceReference<RpcEndpoint> ref = context.getServiceReference(RpcEndpoint.class);
            return ref == null ? null : context.getService(ref);
        }, e -> e != null);
        try (RpcClient rpc = new RpcClient(current)) {
            return rpc.call("plugins.list").get("refusedBundles").toString();
        }
    }

    private Bundle hostBundle(String symbolicName) {
        for (Bundle b : context.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName()) && b.getLocation().contains("/pi-host/bundle/")) {
                return b;
            }
        }
        throw new AssertionError("no host bundle " + symbolicName);
    }

    /** Pins: copying the SPI's mandatory attribute into an import wired any bundle to the host SPI. */
    @Test
    public void anImportOfTheHostSpiWithItsAttributeCopiedDoesNotResolve() throws BundleException {
        Bundle b = install("guard-spi");
        try {
            b.start();
            fail("a third-party bundle was wired to pi.host.spi");
        } catch (BundleException expected) {
            assertEquals(Bundle.INSTALLED, b.getState());
        } finally {
            b.uninstall();
        }
        assertTrue(refusedBundles(), refusedBundles().contains("imports pi.host.spi, which only the host's own"));
    }

    /** Pins: Require-Bundle of a host bundle wired a bundle to all its packages, the SPI included. */
    @Test
    public void requireBundleOfAHostBundleDoesNotResolve() throws BundleException {
        Bundle b = install("guard-require");
        try {
            assertFalse(frameworkWiring().resolveBundles(List.of(b)));
            assertEquals(Bundle.INSTALLED, b.getState());
        } finally {
            b.uninstall();
        }
        assertTrue(refusedBundles(), refusedBundles().contains("requires host bundle pi.host.core (Require-Bundle)"));
    }

    /**
     * Pins: a fragment of a host bundle attached to it once that bundle was refreshed (FileInstall
     * refreshed the host of every fragment it installed; for pi.host.core that stopped the host answering).
     * Installing one changes nothing, and even a refresh of its host resolves the host without it.
     */
    @Test
    public void aFragmentOfAHostBundleNeverAttachesEvenWhenTheHostIsRefreshed() throws Exception {
        Bundle tools = hostBundle("pi.host.tools");
        BundleWiring before = tools.adapt(BundleWiring.class);
        Bundle fragment = install("guard-fragment");
        try {
            assertFalse(frameworkWiring().resolveBundles(List.of(fragment)));
            assertSame("installing the fragment refreshed nothing", before, tools.adapt(BundleWiring.class));

            CountDownLatch refreshed = new CountDownLatch(1);
            frameworkWiring().refreshBundles(List.of(tools), e -> refreshed.countDown());
            assertTrue("the refresh finished", refreshed.await(60, TimeUnit.SECONDS));
            assertEquals(Bundle.INSTALLED, fragment.getState());
            assertEquals(Bundle.ACTIVE, tools.getState());
            assertTrue(tools.adapt(BundleWiring.class).getProvidedWires("osgi.wiring.host").isEmpty());
            assertTrue(refusedBundles(), refusedBundles().contains("is a fragment of host bundle pi.host.tools"));
        } finally {
            fragment.uninstall();
        }
    }

    /**
     * Pins: a refused bundle left installed made the framework drop every resolved bundle's capabilities
     * from each later resolve (Felix's whitelist after a resolver hook's filterResolvable), so a drop-in
     * named pi.host.jev kept the real Jev bundle from starting, and any other bundle from resolving.
     */
    @Test
    public void aBundleTakingAHostBundlesNameNeverResolvesNorKeepsOthersFromResolving() throws BundleException {
        Bundle named = install("guard-named");
        Bundle plain = install("guard-plain");
        Bundle later = null;
        try {
            assertFalse(frameworkWiring().resolveBundles(List.of(named, plain)));
            assertEquals(Bundle.INSTALLED, named.getState());
            assertEquals("a bundle resolved beside it", Bundle.RESOLVED, plain.getState());
            later = install("guard-later");
            assertTrue("a bundle resolved while it stays installed", frameworkWiring().resolveBundles(List.of(later)));
            assertEquals(Bundle.INSTALLED, named.getState());
            assertTrue(refusedBundles(), refusedBundles().contains("takes the symbolic name pi.host.tools of a host"
                    + " bundle"));
        } finally {
            if (later != null) {
                later.uninstall();
            }
            plain.uninstall();
            named.uninstall();
        }
    }

    /** Pins: a third-party export of a higher version could become the provider a host bundle is wired to. */
    @Test
    public void aHostBundleIsWiredToTheDistributionsPackageNotAThirdPartyExport() throws BundleException {
        Bundle shadow = install("guard-shadow");
        Bundle consumer = install("guard-consumer");
        try {
            assertTrue(frameworkWiring().resolveBundles(List.of(shadow, consumer)));
            BundleWire wire = consumer.adapt(BundleWiring.class).getRequiredWires("osgi.wiring.package").get(0);
            assertEquals("slf4j.api", wire.getProvider().getBundle().getSymbolicName());
            assertTrue(refusedBundles(), refusedBundles().contains("offers osgi.wiring.package org.slf4j, which host"
                    + " bundle org.example.guard.consumer requires"));
        } finally {
            consumer.uninstall();
            shadow.uninstall();
        }
    }
}
