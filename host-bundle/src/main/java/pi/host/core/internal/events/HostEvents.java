package pi.host.core.internal.events;

import java.util.concurrent.CopyOnWriteArrayList;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.info.ShutdownParticipant;
import pi.host.core.internal.info.StartupGate;

/**
 * Fans host notifications (PROTOCOL.md: permission.request, tool.output, tools.changed, ...) out to
 * every connected client. Publishing never blocks on, or fails because of, a subscriber. Nothing is
 * sent before the whole host has started ({@link StartupGate}): tools and plugins registering while the
 * later bundles start are not news to a client, which could list nothing before then.
 */
@Component(service = {HostEvents.class, ShutdownParticipant.class})
public final class HostEvents implements ShutdownParticipant {

    /** Receives notifications; must be quick and thread-safe. */
    @FunctionalInterface
    public interface Subscriber {
        void notify(String method, Object params);
    }

    private final CopyOnWriteArrayList<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final StartupGate startup;
    private volatile boolean stopping;

    @Activate
    public HostEvents(@Reference StartupGate startup) {
        this.startup = startup;
    }

    /** Once the host is stopping, clients hear nothing more (tools going away at shutdown are not news). */
    @Override
    public void hostStopping() {
        stopping = true;
    }

    /** Adds a subscriber; closing the returned handle removes it. */
    public AutoCloseable subscribe(Subscriber subscriber) {
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }

    /** How many clients are listening; zero means nobody can answer a permission card. */
    public int subscriberCount() {
        return subscribers.size();
    }

    /** Sends one notification to every subscriber. */
    public void publish(String method, Object params) {
        if (stopping || !startup.ready()) {
            return;
        }
        for (Subscriber s : subscribers) {
            try {
                s.notify(method, params);
            } catch (RuntimeException e) {
                // one broken client must not keep the others from hearing about the host
                System.getLogger(HostEvents.class.getName())
                        .log(System.Logger.Level.WARNING, "notification subscriber failed", e);
            }
        }
    }
}
