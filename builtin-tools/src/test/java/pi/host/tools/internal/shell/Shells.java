package pi.host.tools.internal.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import pi.host.spi.BackgroundHost;
import pi.host.spi.TaskInfo;

/** Test doubles for the host side. */
final class Shells {

    private Shells() {
    }

    /** A host where every session exists and updates are recorded. */
    static final class Host implements BackgroundHost {
        final List<TaskInfo> updates = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.Set<String> gone = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public boolean sessionExists(String sessionId) {
            return !gone.contains(sessionId);
        }

        @Override
        public void updated(TaskInfo task) {
            updates.add(task);
        }

        Optional<TaskInfo> last(String taskId) {
            List<TaskInfo> mine = new ArrayList<>();
            updates.forEach(u -> {
                if (u.taskId().equals(taskId)) {
                    mine.add(u);
                }
            });
            return mine.isEmpty() ? Optional.empty() : Optional.of(mine.get(mine.size() - 1));
        }
    }
}
