package pi.host.core.internal.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Which deferred tools a new prompt may keep active (spec §2.1): only what successful results in the
 * prompt's context prove. A ToolSearch result's {@code details.addedToolNames} (canonical), or the
 * historical {@code details.activated} and top-level {@code addedToolNames} markers, and the names of
 * successful deferred-tool results. Failed, errored, interrupted and placeholder rows and prose are
 * ignored; every restored name must be in the current mode's deferred catalog.
 *
 * <p>A context row is an object: {@code {"toolName": "...", "ok": true, "details": {...},
 * "addedToolNames": [...], "interrupted": false, "placeholder": false}}; rows without a
 * {@code toolName} (assistant or user text) carry no evidence.
 */
public final class ContextRestoration {

    private ContextRestoration() {
    }

    /** The names to restore; {@code context} may be null or anything (then nothing is restored). */
    public static Set<String> restore(JsonNode context, Set<String> deferredCatalog) {
        Set<String> restored = new LinkedHashSet<>();
        if (context == null || !context.isArray()) {
            return restored;
        }
        for (JsonNode row : context) {
            if (!succeeded(row)) {
                continue;
            }
            String tool = row.get("toolName").textValue();
            if ("ToolSearch".equals(tool)) {
                addNames(row.path("details").get("addedToolNames"), deferredCatalog, restored);
                addNames(row.path("details").get("activated"), deferredCatalog, restored);
                addNames(row.get("addedToolNames"), deferredCatalog, restored);
            } else if (deferredCatalog.contains(tool)) {
                restored.add(tool);
            }
        }
        return restored;
    }

    /** A tool result that completed successfully: ok is true, no error flag, not interrupted or a placeholder. */
    static boolean succeeded(JsonNode row) {
        return row != null && row.isObject()
                && row.path("toolName").isTextual()
                && row.path("ok").isBoolean() && row.get("ok").booleanValue()
                && !row.path("isError").asBoolean(false)
                && !row.path("interrupted").asBoolean(false)
                && !row.path("placeholder").asBoolean(false);
    }

    private static void addNames(JsonNode names, Set<String> deferredCatalog, Set<String> into) {
        if (names == null || !names.isArray()) {
            return;
        }
        for (JsonNode n : names) {
            if (n.isTextual() && deferredCatalog.contains(n.textValue())) {
                into.add(n.textValue());
            }
        }
    }
}
