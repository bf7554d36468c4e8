package pi.host.core.internal.plugins;

import pi.host.core.internal.info.StartupGate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.rpc.RpcMethod;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.PluginGrantStore;
import pi.host.spi.GrantsUnavailableException;
import pi.host.spi.PluginHost;
import pi.host.spi.PluginInfo;
import pi.host.spi.PluginRuntime;

/** plugins.list/grant/revoke against a real SQLite file: exact error codes, and nothing written on a refusal. */
class PluginMethodsTest {

    @TempDir
    Path dir;

    private Database db;
    private final HostEvents events = new HostEvents(StartupGate.open());
    private final Map<String, RpcMethod> table = new HashMap<>();
    private final List<String> told = new ArrayList<>();
    private final List<String> notified = new ArrayList<>();

    /** A runtime with one installed plugin, git-info. */
    private final PluginRuntime runtime = new PluginRuntime() {
        @Override
        public List<PluginInfo> plugins() {
            return List.of(new PluginInfo("git-info", "Git information", "1.0.0", 7, "org.example.git", "git-info.jar",
                    "awaiting-grant", false, List.of(), List.of(), List.of()));
        }

        @Override
        public void grantsChanged(String pluginId) {
            told.add(pluginId);
        }
    };

    private PluginMethods methods(Path file) {
        db = Database.open(file);
        PluginMethods m = new PluginMethods(new PluginGrantStore(db), events,
                Clock.fixed(Instant.ofEpochMilli(1234), ZoneOffset.UTC), List::of, List::of);
        m.register(table::put);
        m.bindRuntime(runtime);
        events.subscribe((method, params) -> notified.add(method + " " + params));
        return m;
    }

    @AfterEach
    void close() {
        if (db != null) {
            db.close();
        }
    }

    private Object call(String method, String pluginId, String capability) throws Exception {
        ObjectNode p = JsonNodeFactory.instance.objectNode();
        if (pluginId != null) {
            p.put("pluginId", pluginId);
        }
        if (capability != null) {
            p.put("capability", capability);
        }
        return table.get(method).call(new Params(p), (m, params) -> { });
    }

    private int rows() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("pi-host.db"));
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM plugin_grants")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void aGrantIsPersistedThenTheRuntimeIsTold() throws Exception {
        PluginMethods m = methods(dir.resolve("pi-host.db"));
        call("plugins.grant", "git-info", PluginHost.TOOL_REGISTER);
        assertThat(m.granted("git-info", PluginHost.TOOL_REGISTER)).isTrue();
        assertThat(told).containsExactly("git-info");
        assertThat(rows()).isEqualTo(1);
        call("plugins.grant", "git-info", PluginHost.TOOL_REGISTER);
        assertThat(rows()).as("granting twice keeps one row").isEqualTo(1);
    }

    @Test
    void aGrantSurvivesReopeningTheStore() throws Exception {
        methods(dir.resolve("pi-host.db"));
        call("plugins.grant", "git-info", PluginHost.TOOL_REGISTER);
        db.close();
        PluginMethods reopened = methods(dir.resolve("pi-host.db"));
        assertThat(reopened.granted("git-info", PluginHost.TOOL_REGISTER)).isTrue();
    }

    @Test
    void aRevokeRemovesTheGrantAndTellsTheRuntime() throws Exception {
        PluginMethods m = methods(dir.resolve("pi-host.db"));
        call("plugins.grant", "git-info", PluginHost.TOOL_REGISTER);
        call("plugins.revoke", "git-info", PluginHost.TOOL_REGISTER);
        assertThat(m.granted("git-info", PluginHost.TOOL_REGISTER)).isFalse();
        assertThat(told).containsExactly("git-info", "git-info");
        assertThat(rows()).isZero();
    }

    @Test
    void grantingAnUnknownPluginIsInvalidArgumentAndWritesNothing() throws Exception {
        methods(dir.resolve("pi-host.db"));
        assertThatThrownBy(() -> call("plugins.grant", "nope", PluginHost.TOOL_REGISTER))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.code()).isEqualTo(RpcException.INVALID_PARAMS);
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.getMessage()).contains("no plugin 'nope'");
                });
        assertThat(rows()).isZero();
        assertThat(told).isEmpty();
    }

    @Test
    void grantingAnUnknownCapabilityIsInvalidArgumentAndWritesNothing() throws Exception {
        methods(dir.resolve("pi-host.db"));
        assertThatThrownBy(() -> call("plugins.grant", "git-info", "agent.tool.Register"))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.getMessage()).contains("unknown capability 'agent.tool.Register'");
                });
        assertThat(rows()).isZero();
        assertThat(told).isEmpty();
    }

    @Test
    void revokingAnUnknownCapabilityIsInvalidArgumentAndRemovesNothing() throws Exception {
        methods(dir.resolve("pi-host.db"));
        call("plugins.grant", "git-info", PluginHost.TOOL_REGISTER);
        assertThatThrownBy(() -> call("plugins.revoke", "git-info", "everything"))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void revokingAnUnknownPluginIsInvalidArgument() throws Exception {
        methods(dir.resolve("pi-host.db"));
        assertThatThrownBy(() -> call("plugins.revoke", "nope", PluginHost.TOOL_REGISTER))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThat(told).isEmpty();
    }

    @Test
    void missingParamsAreInvalidArgumentAndWriteNothing() throws Exception {
        methods(dir.resolve("pi-host.db"));
        assertThatThrownBy(() -> call("plugins.grant", null, PluginHost.TOOL_REGISTER))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThatThrownBy(() -> call("plugins.grant", "git-info", null))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThat(rows()).isZero();
    }

    @Test
    void aBrokenStoreFailsClosedAndAnswersStorageError() throws Exception {
        Path file = dir.resolve("broken.db");
        Files.writeString(file, "this is not an sqlite database, not even close ".repeat(100));
        PluginMethods m = methods(file);
        assertThatThrownBy(() -> m.granted("git-info", PluginHost.TOOL_REGISTER))
                .isInstanceOf(GrantsUnavailableException.class);
        assertThatThrownBy(() -> call("plugins.grant", "git-info", PluginHost.TOOL_REGISTER))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STORAGE_ERROR));
        assertThat(told).as("the runtime is not told of a grant that was not written").isEmpty();
    }

    @Test
    void listingWithoutTheRuntimeIsEmpty() throws Exception {
        PluginMethods m = methods(dir.resolve("pi-host.db"));
        m.unbindRuntime(runtime);
        assertThat(call("plugins.list", null, null)).isEqualTo(Map.of("plugins", List.of(), "refusedTools", List.of(),
                "refusedBundles", List.of()));
    }

    @Test
    void pluginsChangedIsPublished() {
        PluginMethods m = methods(dir.resolve("pi-host.db"));
        m.pluginsChanged("git-info", 7, "registered");
        assertThat(notified).hasSize(1);
        assertThat(notified.get(0)).startsWith("plugins.changed").contains("git-info", "registered");
    }
}
