package pi.host.core.internal.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.info.StartupGate;
import pi.host.core.internal.info.StartupGates;

/** Notifications start once the whole host has started (StartupGate) and end when it stops. */
class HostEventsTest {

    private final AtomicInteger level = new AtomicInteger(1);
    private final StartupGate gate = StartupGates.at(level, 2);
    private final HostEvents events = new HostEvents(gate);
    private final List<String> heard = new CopyOnWriteArrayList<>();

    /** Tools registering while the later bundles start are no news: a client lists them once it may. */
    @Test
    void nothingIsPublishedBeforeTheLaterBundlesHaveStarted() throws Exception {
        try (AutoCloseable s = events.subscribe((method, params) -> heard.add(method))) {
            events.publish("tools.changed", null);
            assertThat(heard).isEmpty();

            level.set(2);
            StartupGates.levelChanged(gate);
            events.publish("tools.changed", null);
            assertThat(heard).containsExactly("tools.changed");

            events.hostStopping();
            events.publish("tools.changed", null);
            assertThat(heard).containsExactly("tools.changed");
        }
    }
}
