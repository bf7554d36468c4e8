package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import pi.host.core.rpc.HostClient;
import pi.host.console.internal.screen.Screen;

/** The console's one session and what it needs to drive it. */
final class Context {

    final HostClient client;
    final Screen screen;
    final String sessionId;
    final Path workspace;
    final Catalog catalog;
    /** Snapshot ids of this run's changes and background task ids, for completion. */
    final Set<String> snapshots = ConcurrentHashMap.newKeySet();
    final Set<String> tasks = ConcurrentHashMap.newKeySet();
    private final AtomicInteger lines = new AtomicInteger();
    private volatile String mode;
    private volatile String permissionMode;

    Context(HostClient client, Screen screen, JsonNode session) {
        this.client = client;
        this.screen = screen;
        this.sessionId = session.path("sessionId").asText();
        this.workspace = Path.of(session.path("workspaceRoot").asText());
        this.catalog = new Catalog(client, sessionId);
        update(session);
    }

    /** Takes mode and effective permission mode from a session record. */
    void update(JsonNode session) {
        if (session.hasNonNull("mode")) {
            mode = session.get("mode").asText();
        }
        if (session.hasNonNull("effectivePermissionMode")) {
            permissionMode = session.get("effectivePermissionMode").asText();
        }
    }

    void mode(String mode) {
        this.mode = mode;
    }

    String mode() {
        return mode;
    }

    String permissionMode() {
        return permissionMode;
    }

    /** A new number for a typed line: its turn and call ids. */
    int nextLine() {
        return lines.incrementAndGet();
    }

    String prompt() {
        return "pi (" + mode + ", " + permissionMode + ")> ";
    }
}
