package pi.host.core.internal.execute;

import java.util.ArrayList;
import java.util.List;

/**
 * The cancellation signal of one tool call. Registered before policy, so an abort reaches a call
 * wherever it is: waiting for a permission card, queued for admission, or running.
 */
public final class CallCancellation {

    private final String toolName;
    private final List<Runnable> actions = new ArrayList<>();
    private String reason;

    CallCancellation(String toolName) {
        this.toolName = toolName;
    }

    /** The tool this record belongs to; an abort naming another tool does not touch it. */
    public String toolName() {
        return toolName;
    }

    public synchronized boolean isCancelled() {
        return reason != null;
    }

    /** Why the call was cancelled ("aborted", "timeout", "shutdown"), or null. */
    public synchronized String reason() {
        return reason;
    }

    /** Cancels once; runs the registered actions outside the lock. */
    public void cancel(String why) {
        List<Runnable> run;
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = why;
            run = new ArrayList<>(actions);
            actions.clear();
        }
        for (Runnable r : run) {
            try {
                r.run();
            } catch (RuntimeException e) {
                System.getLogger(CallCancellation.class.getName())
                        .log(System.Logger.Level.WARNING, "cancellation action failed", e);
            }
        }
    }

    /**
     * Runs {@code action} on cancellation (at once if already cancelled). Closing the returned
     * handle forgets the action.
     */
    public AutoCloseableAction onCancel(Runnable action) {
        boolean now;
        synchronized (this) {
            now = reason != null;
            if (!now) {
                actions.add(action);
            }
        }
        if (now) {
            action.run();
        }
        return () -> {
            synchronized (this) {
                actions.remove(action);
            }
        };
    }

    /** A registration that can be undone without checked exceptions. */
    @FunctionalInterface
    public interface AutoCloseableAction extends AutoCloseable {
        @Override
        void close();
    }
}
