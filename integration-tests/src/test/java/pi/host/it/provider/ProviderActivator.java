package pi.host.it.provider;

import java.util.Dictionary;
import java.util.Hashtable;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;

/**
 * Registers an {@link EchoTool} under the name the bundle's {@value #TOOL_NAME_HEADER} header gives.
 * A plain activator rather than a DS component keeps the throw-away bundles to two classes and a
 * manifest (no SCR metadata to generate); one class serves every test bundle through the header.
 */
public final class ProviderActivator implements BundleActivator {

    /** Manifest header naming the tool this bundle registers. */
    public static final String TOOL_NAME_HEADER = "Pi-It-Tool-Name";

    @Override
    public void start(BundleContext context) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Tool.NAME, context.getBundle().getHeaders().get(TOOL_NAME_HEADER));
        properties.put(Tool.RISK, "low");
        context.registerService(ToolProvider.class, new EchoTool(), properties);
    }

    @Override
    public void stop(BundleContext context) {
        // nothing to do: the framework unregisters a stopping bundle's services, which is the path under test
    }
}
