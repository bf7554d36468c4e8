package pi.host.core.internal.info;

import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * Ends the host: stops the OSGi framework, which deactivates every component in order (clients
 * are drained, background work is stopped); the launcher then exits the process.
 */
@Component(service = HostLifecycle.class)
public final class HostLifecycle {

    private final Bundle systemBundle;
    private final AtomicBoolean requested = new AtomicBoolean();

    @Activate
    public HostLifecycle(BundleContext context) {
        this.systemBundle = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION);
    }

    /** Starts stopping the host once; returns at once (the caller may be a component being stopped). */
    public void requestShutdown(String reason) {
        if (!requested.compareAndSet(false, true)) {
            return;
        }
        System.getLogger(HostLifecycle.class.getName()).log(System.Logger.Level.INFO, "shutting down: {0}", reason);
        Thread stopper = new Thread(() -> {
            try {
                systemBundle.stop();
            } catch (BundleException e) {
                System.getLogger(HostLifecycle.class.getName())
                        .log(System.Logger.Level.ERROR, "framework stop failed", e);
            }
        }, "pi-host-shutdown");
        stopper.setDaemon(false);
        stopper.start();
    }

    public boolean shutdownRequested() {
        return requested.get();
    }
}
