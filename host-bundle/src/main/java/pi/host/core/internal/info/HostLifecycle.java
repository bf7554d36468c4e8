package pi.host.core.internal.info;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * Ends the host: stops the OSGi framework, which deactivates every component in order (clients
 * are drained, background work is stopped); the launcher then exits the process.
 */
@Component(service = HostLifecycle.class)
public final class HostLifecycle {

    private final Bundle systemBundle;
    private final AtomicBoolean requested = new AtomicBoolean();
    private final AtomicBoolean announced = new AtomicBoolean();
    private final List<ShutdownParticipant> participants = new CopyOnWriteArrayList<>();

    @Activate
    public HostLifecycle(BundleContext context) {
        this.systemBundle = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addParticipant(ShutdownParticipant p) {
        participants.add(p);
    }

    void removeParticipant(ShutdownParticipant p) {
        participants.remove(p);
    }

    /** Starts stopping the host once; returns at once (the caller may be a component being stopped). */
    public void requestShutdown(String reason) {
        if (!requested.compareAndSet(false, true)) {
            return;
        }
        System.getLogger(HostLifecycle.class.getName()).log(System.Logger.Level.INFO, "shutting down: {0}", reason);
        Thread stopper = new Thread(() -> {
            announceStopping();
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

    /**
     * Tells the participants once that the host is stopping (waiting cards end as denials), without
     * stopping anything yet: the stdio server then drains its requests before asking to shut down.
     */
    public void announceStopping() {
        if (!announced.compareAndSet(false, true)) {
            return;
        }
        for (ShutdownParticipant p : participants) {
            try {
                p.hostStopping();
            } catch (RuntimeException e) {
                System.getLogger(HostLifecycle.class.getName())
                        .log(System.Logger.Level.WARNING, "shutdown participant failed", e);
            }
        }
    }

    public boolean shutdownRequested() {
        return requested.get();
    }
}
