package pi.host.core.internal.background;

import pi.host.core.internal.info.StartupGate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.spi.BackgroundTasks;
import pi.host.spi.TaskInfo;
import pi.host.spi.TaskOutput;
import pi.host.spi.TaskState;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.rpc.RpcMethod;

class BackgroundMethodsTest {

    @org.junit.jupiter.api.io.TempDir
    static java.nio.file.Path data;

    private final HostEvents events = new HostEvents(StartupGate.open());
    private final BackgroundMethods methods = new BackgroundMethods(new pi.host.core.internal.session.SessionService(
            new pi.host.core.internal.store.SessionStore(pi.host.core.internal.store.Database.open(
                    data.resolve("pi-host.db"))), data, java.time.Clock.systemUTC()), events);
    private final Map<String, RpcMethod> table = new HashMap<>();
    private final List<String> calls = new ArrayList<>();
    private final TaskInfo running = new TaskInfo("bg_1", "s1", "sleep 9", null, TaskState.RUNNING, null, false, 1, null);

    private final BackgroundTasks fake = new BackgroundTasks() {
        @Override
        public List<TaskInfo> list(String sessionId) {
            return List.of(running);
        }

        @Override
        public Optional<TaskOutput> read(String taskId) {
            return "bg_1".equals(taskId) ? Optional.of(new TaskOutput(running, "out", "", 0, 0)) : Optional.empty();
        }

        @Override
        public Optional<TaskInfo> stop(String taskId) {
            calls.add("stop " + taskId);
            return "bg_1".equals(taskId) ? Optional.of(running) : Optional.empty();
        }

        @Override
        public Removal remove(String taskId) {
            return "bg_1".equals(taskId) ? Removal.RUNNING : Removal.UNKNOWN;
        }

        @Override
        public void sessionDeleted(String sessionId) {
            calls.add("deleted " + sessionId);
        }

        @Override
        public void stopAll() {
            calls.add("stopAll");
        }
    };

    private Object call(String method, String taskId) throws Exception {
        ObjectNode p = JsonNodeFactory.instance.objectNode();
        if (taskId != null) {
            p.put("taskId", taskId);
        }
        return table.get(method).call(new Params(p), (m, params) -> { });
    }

    @Test
    void withoutTheToolsBundleTheMethodsSayTheyAreNotActive() throws Exception {
        methods.register(table::put);
        assertThat(table).containsOnlyKeys("background.list", "background.read", "background.stop", "background.remove");
        assertThatThrownBy(() -> call("background.list", null)).isInstanceOfSatisfying(RpcException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TOOL_NOT_ACTIVE));
        methods.sessionDeleted("s1"); // nothing bound: no failure
        methods.hostStopping();
    }

    @Test
    void servesTheBoundTasksAndForwardsDeleteAndShutdown() throws Exception {
        methods.register(table::put);
        methods.bindTasks(fake);
        assertThat(call("background.list", null)).isEqualTo(Map.of("tasks", List.of(running)));
        assertThat(((TaskOutput) call("background.read", "bg_1")).stdout()).isEqualTo("out");
        assertThatThrownBy(() -> call("background.read", "nope")).isInstanceOfSatisfying(RpcException.class,
                e -> assertThat(e.code()).isEqualTo(RpcException.INVALID_PARAMS));
        assertThatThrownBy(() -> call("background.remove", "bg_1")).hasMessageContaining("still running");
        call("background.stop", "bg_1");
        methods.sessionDeleted("s1");
        methods.hostStopping();
        assertThat(calls).containsExactly("stop bg_1", "deleted s1", "stopAll");
        methods.unbindTasks(fake);
        assertThatThrownBy(() -> call("background.list", null)).isInstanceOf(RpcException.class);
    }

    @Test
    void updatesArePublishedAsBackgroundUpdated() {
        List<String> seen = new ArrayList<>();
        events.subscribe((method, params) -> seen.add(method + " " + ((TaskInfo) params).taskId()));
        methods.updated(running);
        assertThat(seen).containsExactly("background.updated bg_1");
    }
}
