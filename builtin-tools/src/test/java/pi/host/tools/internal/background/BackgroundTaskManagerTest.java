package pi.host.tools.internal.background;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.spi.BackgroundHost;
import pi.host.spi.BackgroundTasks;
import pi.host.spi.TaskInfo;
import pi.host.spi.TaskOutput;
import pi.host.spi.TaskState;
import pi.host.tools.internal.process.ProcessSupervisor;

@EnabledOnOs({OS.LINUX, OS.MAC})
class BackgroundTaskManagerTest {

    @TempDir
    Path dir;

    private final ProcessSupervisor supervisor = new ProcessSupervisor();
    private final List<TaskOutput> terminalReads = new CopyOnWriteArrayList<>();
    private final List<TaskInfo> updates = new CopyOnWriteArrayList<>();
    private final Set<String> gone = ConcurrentHashMap.newKeySet();
    private BackgroundTaskManager manager;

    private final BackgroundHost host = new BackgroundHost() {
        @Override
        public boolean sessionExists(String sessionId) {
            return !gone.contains(sessionId);
        }

        @Override
        public void updated(TaskInfo task) {
            updates.add(task);
            if (task.state().terminal()) {
                // what a client reading right after the notification sees
                terminalReads.add(manager.read(task.taskId()).orElseThrow());
            }
        }
    };

    @AfterEach
    void tearDown() {
        manager.stopAll();
        supervisor.close();
    }

    private TaskInfo start(String session, String command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder().directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        return manager.start(session, command, null, pb, List.of("/bin/bash", "-c", command));
    }

    private TaskState state(String id) {
        return manager.read(id).orElseThrow().task().state();
    }

    @Test
    void limitsPerSessionAndPerHostAreDistinct() throws Exception {
        manager = new BackgroundTaskManager(supervisor, host, 2, 3);
        start("a", "sleep 30");
        start("a", "sleep 30");
        assertThatThrownBy(() -> start("a", "sleep 30")).isInstanceOfSatisfying(BackgroundTaskManager.Refused.class,
                e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.BACKGROUND_LIMIT);
                    assertThat(e.getMessage()).contains("per-session limit of 2");
                });
        start("b", "sleep 30");
        assertThatThrownBy(() -> start("c", "sleep 30")).isInstanceOfSatisfying(BackgroundTaskManager.Refused.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKGROUND_HOST_LIMIT));
    }

    /** Pins: a terminal state published before the last output was read loses the end of the log. */
    @Test
    void outputIsDrainedBeforeTheTerminalState() throws Exception {
        manager = new BackgroundTaskManager(supervisor, host, 10, 64);
        TaskInfo t = start("a", "for i in $(seq 1 20000); do echo line$i; done; echo tail >&2; exit 4");
        await().atMost(Duration.ofSeconds(20)).until(() -> !terminalReads.isEmpty());
        TaskOutput seen = terminalReads.get(0);
        assertThat(seen.task().state()).isEqualTo(TaskState.FAILED);
        assertThat(seen.task().exitCode()).isEqualTo(4);
        assertThat(seen.stdout()).endsWith("line20000\n");
        assertThat(seen.stderr()).isEqualTo("tail\n");
        assertThat(updates).extracting(TaskInfo::taskId).containsOnly(t.taskId());
        assertThat(manager.remove(t.taskId())).isEqualTo(BackgroundTasks.Removal.REMOVED);
        assertThat(manager.read(t.taskId())).isEmpty();
    }

    @Test
    void deletingTheSessionStopsItsTasksAndRefusesNewOnes() throws Exception {
        manager = new BackgroundTaskManager(supervisor, host, 10, 64);
        TaskInfo mine = start("a", "trap '' TERM; setsid sleep 60 & sleep 60");
        TaskInfo other = start("b", "sleep 60");
        assertThat(manager.remove(mine.taskId())).isEqualTo(BackgroundTasks.Removal.RUNNING);
        manager.sessionDeleted("a");
        await().atMost(Duration.ofSeconds(10)).until(() -> state(mine.taskId()) == TaskState.STOPPED);
        assertThat(state(other.taskId())).isEqualTo(TaskState.RUNNING);
        assertThatThrownBy(() -> start("a", "true")).isInstanceOfSatisfying(BackgroundTaskManager.Refused.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.SESSION_NOT_FOUND));
        gone.add("z");
        assertThatThrownBy(() -> start("z", "true")).isInstanceOfSatisfying(BackgroundTaskManager.Refused.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.SESSION_NOT_FOUND));
    }

    @Test
    void theTailKeepsTheLast256KPerStream() throws Exception {
        manager = new BackgroundTaskManager(supervisor, host, 10, 64);
        TaskInfo t = start("a", "head -c 1000000 /dev/zero | tr '\\0' x; echo END");
        await().atMost(Duration.ofSeconds(20)).until(() -> state(t.taskId()) == TaskState.EXITED);
        TaskOutput out = manager.read(t.taskId()).orElseThrow();
        assertThat(out.stdout()).endsWith("xxEND\n");
        assertThat(out.stdoutCut()).isEqualTo(1_000_004 - BackgroundTaskManager.TAIL_CHARS);
    }

    @Test
    void stopAllStopsEveryTaskAndRefusesNewOnes() throws Exception {
        manager = new BackgroundTaskManager(supervisor, host, 10, 64);
        TaskInfo t = start("a", "sleep 60");
        manager.stopAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> state(t.taskId()) == TaskState.STOPPED);
        assertThatThrownBy(() -> start("a", "true")).isInstanceOf(BackgroundTaskManager.Refused.class);
    }
}
