package pi.host.core.internal.info;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
 *
 * <p>A host started by the start-up archive's training (bin/jvm.sh passes {@value #TRAINING}{@code =true}, nobody
 * else) first lets the work it does after its first answer finish ({@link FirstAnswer#awaitDone}, at most
 * {@value #TRAINING_WAIT_MS} ms): the warm-ups and quiet work wait for the calls to pause, so they run after the
 * training's last call, and the archive holds only the classes loaded by then. Ending the training after a fixed
 * pause instead made what was archived depend on how busy the machine was. A user's host does not wait: what has
 * not begun is dropped when it stops. Past the bound the training stops anyway; its archive is then missing some
 * of that work's classes, which a start loads from the jars as before, so it is kept (docs/performance.md).
 */
@Component(service = HostLifecycle.class)
public final class HostLifecycle {

    /** JVM property bin/jvm.sh's training sets on the host it trains an archive with; nothing else sets it. */
    public static final String TRAINING = "pi.host.training";
    /** The longest a training host waits at its stop for its after-answer work (a quiet machine: under 1 s). */
    static final long TRAINING_WAIT_MS = 30_000;

    private final Bundle systemBundle;
    private final FirstAnswer afterAnswer;
    private final boolean training;
    private final AtomicBoolean requested = new AtomicBoolean();
    private final AtomicBoolean announced = new AtomicBoolean();
    private final List<ShutdownParticipant> participants = new CopyOnWriteArrayList<>();

    @Activate
    public HostLifecycle(BundleContext context, @Reference FirstAnswer afterAnswer) {
        this(context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION), afterAnswer,
                "true".equals(context.getProperty(TRAINING)));
    }

    /** For tests: the framework's system bundle, and whether this is a training host. */
    HostLifecycle(Bundle systemBundle, FirstAnswer afterAnswer, boolean training) {
        this.systemBundle = systemBundle;
        this.afterAnswer = afterAnswer;
        this.training = training;
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
        if (training) {
            awaitAfterAnswerWork();
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

    /** The training host's wait (see the class comment); the callers are the stop's own threads, never a call's. */
    private void awaitAfterAnswerWork() {
        System.Logger log = System.getLogger(HostLifecycle.class.getName());
        long began = System.nanoTime();
        try {
            boolean done = afterAnswer.awaitDone(TRAINING_WAIT_MS);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            if (done) {
                log.log(System.Logger.Level.INFO, "training: the after-answer work done, {0} ms after the stop began", ms);
            } else {
                log.log(System.Logger.Level.WARNING, "training: the after-answer work not done after {0} ms; stopping", ms);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean shutdownRequested() {
        return requested.get();
    }
}
