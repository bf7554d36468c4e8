package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.ops4j.pax.tinybundles.TinyBundles.bundle;
import static org.ops4j.pax.tinybundles.TinyBundles.rawBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
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
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;

/**
 * The host SPI ({@code pi.host.spi}: provenance, review snapshots, the edit guard) is wired to the
 * builtin tools only: it is exported with a mandatory attribute, so a plugin that simply imports
 * the package does not resolve.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class HostSpiIsolationIT {

    private static final String SNOOP = "pi.host.it.snoop";

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] config() {
        Path jar = Paths.get(System.getProperty(ProviderBundles.DIRECTORY)).toAbsolutePath().resolve(SNOOP + ".jar");
        try (InputStream bytes = bundle()
                .setHeader("Bundle-ManifestVersion", "2")
                .symbolicName(SNOOP)
                .setHeader("Bundle-Version", "1.0.0")
                .setHeader("Import-Package", "pi.host.spi;version=\"[0.1,1)\"")
                .build(rawBuilder())) {
            Files.createDirectories(jar.getParent());
            Files.copy(bytes, jar, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Option[] {HostBundles.options()};
    }

    @Test
    public void aPluginImportingTheHostSpiDoesNotResolve() throws BundleException {
        Bundle snoop = context.installBundle(ProviderBundles.location(SNOOP));
        try {
            snoop.start();
            fail("a bundle importing pi.host.spi without the builtin attribute resolved");
        } catch (BundleException expected) {
            assertEquals(Bundle.INSTALLED, snoop.getState());
        } finally {
            snoop.uninstall();
        }
    }

    @Test
    public void theBuiltinToolsAreWiredToIt() {
        Bundle tools = Arrays.stream(context.getBundles())
                .filter(b -> "pi.host.tools".equals(b.getSymbolicName())).findFirst().orElseThrow();
        boolean wired = tools.adapt(BundleWiring.class).getRequiredWires("osgi.wiring.package").stream()
                .map(BundleWire::getCapability)
                .anyMatch(c -> "pi.host.spi".equals(c.getAttributes().get("osgi.wiring.package")));
        assertTrue("pi.host.tools imports pi.host.spi", wired);
    }
}
