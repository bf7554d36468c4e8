package pi.host.it.plugin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Descriptors of the test plugins (driver side, where Jackson builds them): the contract's
 * {@code META-INF/pi-plugin.json}, one tool at a time.
 */
public final class PluginJars {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PluginJars() {
    }

    /** A descriptor without tools yet. */
    public static ObjectNode descriptor(String id, String version) {
        ObjectNode d = JSON.createObjectNode().put("id", id).put("name", "Test plugin " + id).put("version", version);
        d.putArray("agentTools");
        return d;
    }

    /** Adds a tool taking {@code text} (no actions). */
    public static ObjectNode textTool(ObjectNode descriptor, String name, Class<?> type, String risk) {
        ObjectNode t = ((ArrayNode) descriptor.get("agentTools")).addObject().put("name", name)
                .put("description", "Test tool " + name).put("class", type.getName());
        if (risk != null) {
            t.put("risk", risk);
        }
        ObjectNode schema = t.putObject("inputSchema").put("type", "object");
        schema.putObject("properties").putObject("text").put("type", "string");
        schema.put("additionalProperties", false);
        return t;
    }

    /**
     * Adds a tool with actions; the schema leaves {@code action} optional so that the runtime's and the
     * host's checks, not the schema, refuse a missing action.
     */
    public static ObjectNode actionTool(ObjectNode descriptor, String name, Class<?> type, String risk,
            String[] actions, String[] planSafe) {
        ObjectNode t = ((ArrayNode) descriptor.get("agentTools")).addObject().put("name", name)
                .put("description", "Test tool " + name).put("class", type.getName());
        if (risk != null) {
            t.put("risk", risk);
        }
        ArrayNode a = t.putArray("actions");
        for (String s : actions) {
            a.add(s);
        }
        if (planSafe != null) {
            ArrayNode p = t.putArray("planSafeActions");
            for (String s : planSafe) {
                p.add(s);
            }
        }
        ObjectNode schema = t.putObject("inputSchema").put("type", "object");
        schema.putObject("properties").putObject("action").put("type", "string");
        schema.put("additionalProperties", false);
        return t;
    }
}
