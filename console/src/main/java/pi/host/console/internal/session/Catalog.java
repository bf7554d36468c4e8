package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;

/**
 * What the session's current mode offers, as {@code tools.list} answers it: names, schemas (to type
 * bare words and write usage lines) and on-demand summaries. It is a cache for the screen, never a
 * gate: every call goes to the host, which decides. Dropped when tools or the mode change.
 */
final class Catalog {

    /** One tool as {@code tools.list} lists it; {@code schema} is null for an on-demand entry. */
    record Entry(String name, String risk, String summary, JsonNode schema, boolean onDemand) {
    }

    private final HostClient client;
    private final String sessionId;
    private volatile Map<String, Entry> entries;

    Catalog(HostClient client, String sessionId) {
        this.client = client;
        this.sessionId = sessionId;
    }

    /** Forget the list; the next use asks the host again. */
    void invalidate() {
        entries = null;
    }

    /** The entries, asking the host when the cache was dropped; empty when the host cannot answer. */
    Map<String, Entry> entries() {
        Map<String, Entry> e = entries;
        if (e != null) {
            return e;
        }
        try {
            JsonNode list = client.call("tools.list", HostClient.params().put("sessionId", sessionId));
            Map<String, Entry> fresh = new LinkedHashMap<>();
            for (JsonNode t : list.path("tools")) {
                fresh.put(t.path("name").asText(), new Entry(t.path("name").asText(), t.path("risk").asText(""),
                        firstSentence(t.path("description").asText("")), t.path("inputSchema"), false));
            }
            for (JsonNode t : list.path("onDemand")) {
                fresh.putIfAbsent(t.path("name").asText(), new Entry(t.path("name").asText(), "",
                        t.path("summary").asText(""), null, true));
            }
            entries = Collections.unmodifiableMap(fresh);
            return entries;
        } catch (HostError e2) {
            return Map.of();
        } catch (InterruptedException e2) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    List<String> names() {
        return new ArrayList<>(entries().keySet());
    }

    /** The tool's input schema, or null (unknown, or on demand and not active). */
    JsonNode schema(String tool) {
        Entry e = entries().get(tool);
        return e == null ? null : e.schema();
    }

    static String firstSentence(String description) {
        String line = description.strip().split("\n", 2)[0];
        // a sentence ends at ". " before a capital letter, not inside "(e.g. foo)"
        java.util.regex.Matcher end = java.util.regex.Pattern.compile("\\.\\s+(?=[A-Z])").matcher(line);
        return end.find() ? line.substring(0, end.start() + 1) : line;
    }
}
