package pi.host.launcher.dropin;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** A drop-in's activator (or framework extension activator): marks that it was started. */
public final class MarkingActivator implements BundleActivator {
    @Override
    public void start(BundleContext context) {
        Marker.touch(MarkingActivator.class);
    }

    @Override
    public void stop(BundleContext context) {
        // nothing to undo
    }
}
