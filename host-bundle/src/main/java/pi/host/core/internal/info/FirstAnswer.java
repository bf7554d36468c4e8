package pi.host.core.internal.info;

import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/**
 * The moment the host has answered its first request. Work that would compete with that answer for the
 * CPU (starting MCP servers) waits for it, so a host with many servers answers as soon as one with none.
 */
@Component(service = FirstAnswer.class)
public final class FirstAnswer {

    private volatile boolean answered;
    private final List<Runnable> waiting = new ArrayList<>();

    /** Called by the RPC layer after it wrote an answer; cheap once the first one was seen. */
    public void answered() {
        if (answered) {
            return;
        }
        List<Runnable> run;
        synchronized (waiting) {
            if (answered) {
                return;
            }
            answered = true;
            run = List.copyOf(waiting);
            waiting.clear();
        }
        run.forEach(FirstAnswer::start);
    }

    /** Runs {@code action} once on a thread of its own after the first answer (soon, if it came already). */
    public void then(Runnable action) {
        synchronized (waiting) {
            if (!answered) {
                waiting.add(action);
                return;
            }
        }
        start(action);
    }

    private static void start(Runnable action) {
        Thread t = new Thread(action, "pi-after-first-answer");
        t.setDaemon(true);
        t.start();
    }
}
