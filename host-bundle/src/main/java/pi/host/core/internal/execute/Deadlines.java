package pi.host.core.internal.execute;

import java.util.PriorityQueue;

/**
 * One thread that runs actions at their deadlines (the tool bodies' timeouts). Arming and disarming
 * a deadline takes a lock and never wakes the thread, except when the new deadline is earlier than
 * the one it sleeps until: calls of one tool mostly arm ever later deadlines, so a call costs no
 * thread wake-up (a scheduled executor wakes its thread whenever its queue runs empty).
 */
final class Deadlines implements AutoCloseable {

    /** An armed deadline; {@link #disarm()} before it is due keeps its action from running. */
    final class Deadline implements Comparable<Deadline> {
        private final long due;
        private final long order;
        private final Runnable action;

        private Deadline(long due, long order, Runnable action) {
            this.due = due;
            this.order = order;
            this.action = action;
        }

        void disarm() {
            synchronized (Deadlines.this) {
                queue.remove(this);
            }
        }

        @Override
        public int compareTo(Deadline o) {
            int byTime = Long.compare(due - o.due, 0); // nanoTime values: compare by difference
            return byTime != 0 ? byTime : Long.compare(order, o.order);
        }
    }

    private final PriorityQueue<Deadline> queue = new PriorityQueue<>();
    private final Thread thread;
    private long armed;
    /** The deadline the thread sleeps until; meaningless while {@link #idle}. */
    private long sleepingUntil;
    private boolean idle = true;
    private boolean closed;

    Deadlines(String threadName) {
        thread = new Thread(this::loop, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs {@code action} on this object's thread after {@code delayNanos}, unless disarmed first. */
    Deadline arm(long delayNanos, Runnable action) {
        long due = System.nanoTime() + Math.max(0, delayNanos);
        synchronized (this) {
            Deadline d = new Deadline(due, armed++, action);
            queue.add(d);
            if (idle || due - sleepingUntil < 0) {
                notifyAll();
            }
            return d;
        }
    }

    private void loop() {
        while (true) {
            Deadline dueNow;
            synchronized (this) {
                while (true) {
                    if (closed) {
                        return;
                    }
                    Deadline head = queue.peek();
                    long now = System.nanoTime();
                    if (head != null && head.due - now <= 0) {
                        dueNow = queue.poll();
                        break;
                    }
                    idle = head == null;
                    sleepingUntil = idle ? 0 : head.due;
                    try {
                        if (idle) {
                            wait();
                        } else {
                            long nanos = head.due - now;
                            wait(nanos / 1_000_000, (int) (nanos % 1_000_000));
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            try {
                dueNow.action.run();
            } catch (RuntimeException | Error e) {
                System.getLogger(Deadlines.class.getName()).log(System.Logger.Level.ERROR,
                        "a deadline action failed", e);
            }
        }
    }

    /** Stops the thread; armed deadlines never run. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            queue.clear();
            notifyAll();
        }
    }
}
