package pi.host.core.internal.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import pi.host.api.ErrorCode;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolOrigin;

/**
 * A composer MCP selection (spec §2.1): exact server ids activate every mode-allowed tool of those
 * servers, without ToolSearch or its result limit; {@code mcpToolNames} narrows to exact names owned
 * by a selected server. Unknown servers, foreign, unknown or mode-denied names, and a selection that
 * leaves no tool fail; there is no fallback to whole-server activation.
 */
public final class McpSelection {

    /** A selection that cannot be honoured; nothing of it is applied. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }

        public ErrorCode code() {
            return ErrorCode.MCP_SELECTION_INVALID;
        }
    }

    private McpSelection() {
    }

    /**
     * The tools a selection activates.
     *
     * @param selection the {@code mcpSelection} param, or null
     * @param tools every registered tool
     * @param allowed the names the session's mode admits
     */
    public static Set<String> resolve(JsonNode selection, List<RegisteredTool> tools, Set<String> allowed)
            throws Invalid {
        if (selection == null || selection.isNull() || selection.path("serverIds").isMissingNode()) {
            return Set.of(); // no selection: normal on-demand discovery
        }
        List<String> servers = strings(selection.get("serverIds"), "serverIds");
        Set<String> known = new TreeSet<>();
        for (RegisteredTool t : tools) {
            if (t.origin() == ToolOrigin.MCP) {
                known.add(t.owner());
            }
        }
        for (String s : servers) {
            if (!known.contains(s)) {
                throw new Invalid("unknown MCP server '" + s + "'; configured: " + known);
            }
        }
        Set<String> chosen = new LinkedHashSet<>();
        JsonNode names = selection.get("mcpToolNames");
        if (names != null && !names.isNull()) {
            for (String name : strings(names, "mcpToolNames")) {
                RegisteredTool t = tools.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
                if (t == null || t.origin() != ToolOrigin.MCP || !servers.contains(t.owner())) {
                    throw new Invalid("'" + name + "' is not a tool of the selected MCP servers " + servers);
                }
                if (!allowed.contains(name)) {
                    throw new Invalid("'" + name + "' is not available in this session's mode");
                }
                chosen.add(name);
            }
        } else {
            for (RegisteredTool t : tools) {
                if (t.origin() == ToolOrigin.MCP && servers.contains(t.owner()) && allowed.contains(t.name())) {
                    chosen.add(t.name());
                }
            }
        }
        if (chosen.isEmpty()) {
            throw new Invalid("the MCP selection leaves no tool this session's mode allows");
        }
        return chosen;
    }

    private static List<String> strings(JsonNode node, String field) throws Invalid {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw new Invalid(field + " must be a non-empty array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode n : node) {
            if (!n.isTextual()) {
                throw new Invalid(field + " must be a non-empty array of strings");
            }
            out.add(n.textValue());
        }
        return out;
    }
}
