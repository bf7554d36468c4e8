package pi.host.plugins.check;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import pi.host.api.Tool;

/**
 * The rules of the descriptor {@code META-INF/pi-plugin.json} (docs/plugin-guide.md): reads it,
 * records every problem with its fix, and builds the {@link PluginDescriptor} when there is no error.
 * The class named by each tool is only looked for here (its entry must be in the bundle); loading
 * it is left to the caller, after the user's grant.
 */
final class DescriptorRules {

    static final Pattern ID = Pattern.compile("[a-z][a-z0-9.-]{0,47}");
    static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,47}");
    private static final Pattern CLASS_NAME = Pattern.compile(
            "[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");
    static final int MAX_EXPOSED = 64;
    static final long MAX_TIMEOUT_MS = 24L * 3600 * 1000;

    private static final Set<String> TOP_KEYS = Set.of("id", "name", "version", "agentTools");
    private static final Set<String> TOOL_KEYS = Set.of("name", "description", "class", "risk", "actions",
            "planSafeActions", "inputSchema", "timeoutMs", "summary");
    private static final Set<String> RISKS = Set.of("low", "medium", "high");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String file;
    private final ResourceReader entries;
    private final ClassPathEntries classPath;
    private final List<Problem> errors;
    private final List<Problem> warnings;
    private String declaredId;

    DescriptorRules(String file, ResourceReader entries, ClassPathEntries classPath, List<Problem> errors,
            List<Problem> warnings) {
        this.file = file;
        this.entries = entries;
        this.classPath = classPath;
        this.errors = errors;
        this.warnings = warnings;
    }

    String declaredId() {
        return declaredId;
    }

    /** Checks the descriptor's bytes; returns the descriptor when it is free of errors, else null. */
    PluginDescriptor check(byte[] bytes, String bundleVersion) {
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            error("", "the descriptor is not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")",
                    "correct the JSON syntax (a validator or `jq . " + file + "` shows the spot)");
            return null;
        } catch (IOException e) {
            error("", "the descriptor cannot be read: " + e.getMessage(), "rebuild the jar");
            return null;
        }
        if (root == null || !root.isObject()) {
            error("", "the descriptor must be a JSON object", "write {\"id\": ..., \"name\": ..., \"version\": ...,"
                    + " \"agentTools\": [...]}");
            return null;
        }
        int before = errors.size();
        String id = id(root.get("id"));
        String name = requiredText(root, "name", "name", "give the plugin a human-readable \"name\"");
        String version = version(root.get("version"), bundleVersion);
        unknownKeys(root, TOP_KEYS, "");
        List<ToolSpec> tools = tools(root.get("agentTools"), id);
        return errors.size() == before ? new PluginDescriptor(id, name, version, tools) : null;
    }

    private String id(JsonNode node) {
        if (node == null || !node.isTextual()) {
            error("id", "the plugin has no \"id\" string", "add \"id\": \"my-plugin\" (lower case letters, digits,"
                    + " '.' and '-', starting with a letter)");
            return null;
        }
        String id = node.textValue();
        declaredId = id;
        if (!ID.matcher(id).matches()) {
            error("id", "id '" + id + "' is not allowed", "use 1 to 48 characters: a lower-case letter first, then"
                    + " lower-case letters, digits, '.' or '-' (pattern [a-z][a-z0-9.-]{0,47})");
            return null;
        }
        return id;
    }

    private String version(JsonNode node, String bundleVersion) {
        if (node == null || !node.isTextual()) {
            error("version", "the plugin has no \"version\" string", "add \"version\": \"1.0.0\", equal to the"
                    + " bundle's Bundle-Version");
            return null;
        }
        String version = node.textValue();
        int[] declared = OsgiVersions.parse(version);
        if (declared == null) {
            error("version", "version '" + version + "' is not an OSGi version", "use major.minor.micro, e.g. 1.0.0");
            return null;
        }
        int[] bundle = OsgiVersions.parse(bundleVersion == null ? "0.0.0" : bundleVersion);
        if (bundle != null && OsgiVersions.compare(declared, bundle) != 0) {
            error("version", "version " + version + " differs from the bundle's Bundle-Version "
                    + (bundleVersion == null ? "(none, i.e. 0.0.0)" : bundleVersion),
                    "make both the same (the qualifier may differ), e.g. set both to " + version);
        }
        return version;
    }

    private List<ToolSpec> tools(JsonNode node, String pluginId) {
        List<ToolSpec> tools = new ArrayList<>();
        if (node == null || !node.isArray() || node.isEmpty()) {
            error("agentTools", "the plugin declares no tools (\"agentTools\" must be a non-empty array)",
                    "add \"agentTools\": [{\"name\": ..., \"description\": ..., \"class\": ..., \"inputSchema\": ...}]");
            return tools;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            ToolSpec tool = tool(node.get(i), "agentTools[" + i + "]", pluginId, names);
            if (tool != null) {
                tools.add(tool);
            }
        }
        return tools;
    }

    private ToolSpec tool(JsonNode node, String at, String pluginId, Set<String> names) {
        if (!node.isObject()) {
            error(at, "each tool must be a JSON object", "write the tool as {\"name\": ..., \"description\": ..., ...}");
            return null;
        }
        int before = errors.size();
        String name = toolName(node.get("name"), at, pluginId, names);
        String description = requiredText(node, "description", at + ".description",
                "say what the tool does in \"description\" (the model reads it)");
        String className = className(node.get("class"), at + ".class");
        String schema = inputSchema(node.get("inputSchema"), at + ".inputSchema");
        String risk = risk(node.get("risk"), at + ".risk");
        List<String> actions = actions(node.get("actions"), at + ".actions");
        List<String> planSafe = actions(node.get("planSafeActions"), at + ".planSafeActions");
        planSafe(node, actions, planSafe, at);
        actionArgument(node, actions, at);
        long timeoutMs = timeout(node.get("timeoutMs"), at + ".timeoutMs");
        String summary = summary(node.get("summary"), at + ".summary");
        unknownKeys(node, TOOL_KEYS, at + ".");
        if (errors.size() != before) {
            return null;
        }
        return new ToolSpec(name, pluginId == null ? null : PluginDescriptor.exposedName(pluginId, name), description,
                className,
                risk == null ? "medium" : risk, risk != null, actions, planSafe, schema, timeoutMs, summary);
    }

    private String toolName(JsonNode node, String at, String pluginId, Set<String> names) {
        if (node == null || !node.isTextual()) {
            error(at + ".name", "the tool has no \"name\" string", "add \"name\": \"mytool\"");
            return null;
        }
        String name = node.textValue();
        if (!TOOL_NAME.matcher(name).matches()) {
            error(at + ".name", "tool name '" + name + "' is not allowed", "use 1 to 48 characters: an ASCII letter"
                    + " first, then letters, digits, '_' or '-' (pattern [A-Za-z][A-Za-z0-9_-]{0,47})");
            return null;
        }
        if (!names.add(name)) {
            error(at + ".name", "tool name '" + name + "' is used twice in this plugin", "give each tool its own name");
            return null;
        }
        if (pluginId != null) {
            String exposed = PluginDescriptor.exposedName(pluginId, name);
            if (exposed.length() > MAX_EXPOSED) {
                error(at + ".name", "the exposed name '" + exposed + "' has " + exposed.length()
                        + " characters; model APIs accept at most " + MAX_EXPOSED,
                        "shorten the plugin id or the tool name by " + (exposed.length() - MAX_EXPOSED));
            }
        }
        return name;
    }

    private String className(JsonNode node, String at) {
        if (node == null || !node.isTextual() || !CLASS_NAME.matcher(node.textValue()).matches()) {
            error(at, node == null ? "the tool names no \"class\"" : "\"class\" " + node + " is not a Java class name",
                    "name the class implementing pi.host.api.PluginTool, e.g. \"class\": \"org.example.MyTool\"");
            return null;
        }
        String name = node.textValue();
        String entry = name.replace('.', '/') + ".class";
        try {
            if (!classPath.contains(entries, entry)) {
                error(at, "class " + name + " is not in the bundle (no entry " + entry + " on its Bundle-ClassPath)",
                        "check the class name (package included) and that the class is packaged in the jar");
            }
        } catch (IOException e) {
            error(at, "the bundle cannot be read looking for " + entry + ": " + e.getMessage(), "rebuild the jar");
        }
        return name;
    }

    private String inputSchema(JsonNode node, String at) {
        if (node == null) {
            error(at, "the tool has no \"inputSchema\"", "add \"inputSchema\": {\"type\": \"object\", \"properties\":"
                    + " {...}} describing the arguments");
            return null;
        }
        List<String> problems = SchemaRules.problems(node);
        for (String p : problems) {
            error(at, p, "make inputSchema a valid JSON Schema (draft 2020-12) with \"type\": \"object\" at its root");
        }
        return problems.isEmpty() ? node.toString() : null;
    }

    private String risk(JsonNode node, String at) {
        if (node == null) {
            warning(at, "the tool declares no risk, so it runs as medium", "declare \"risk\": \"low\", \"medium\" or"
                    + " \"high\"");
            return null;
        }
        if (!node.isTextual() || !RISKS.contains(node.textValue())) {
            warning(at, "risk " + node + " is not one of low, medium, high, so the tool runs as medium",
                    "declare \"risk\": \"low\", \"medium\" or \"high\" (lower case)");
            return null;
        }
        return node.textValue();
    }

    private List<String> actions(JsonNode node, String at) {
        List<String> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (!node.isArray()) {
            error(at, "must be an array of action names", "write e.g. [\"status\", \"log\"]");
            return out;
        }
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode a = node.get(i);
            if (!a.isTextual() || a.textValue().isEmpty()) {
                error(at + "[" + i + "]", "action " + a + " is not a non-empty string", "name each action with a string");
            } else if (!seen.add(a.textValue())) {
                error(at + "[" + i + "]", "action '" + a.textValue() + "' is listed twice", "list each action once");
            } else {
                out.add(a.textValue());
            }
        }
        return out;
    }

    private void planSafe(JsonNode tool, List<String> actions, List<String> planSafe, String at) {
        JsonNode declared = tool.get("planSafeActions");
        if (declared == null) {
            return;
        }
        if (declared.isArray() && declared.isEmpty()) {
            warning(at + ".planSafeActions", "an empty planSafeActions hides the tool in Plan and Goal, as leaving"
                    + " it out does", "list the read-only actions, or leave planSafeActions out");
        }
        if (tool.get("actions") == null && !planSafe.isEmpty()) {
            error(at + ".planSafeActions", "planSafeActions are declared but the tool declares no \"actions\"",
                    "declare \"actions\" listing every action; planSafeActions must be a subset of them");
            return;
        }
        for (String a : planSafe) {
            if (!actions.contains(a)) {
                error(at + ".planSafeActions", "plan-safe action '" + a + "' is not one of the actions " + actions
                        + " (the comparison is exact and case-sensitive)",
                        "add '" + a + "' to \"actions\" or remove it from \"planSafeActions\"");
            }
        }
    }

    /** With actions, calls carry an {@code action} string: a schema that cannot hold one makes the tool uncallable. */
    private void actionArgument(JsonNode tool, List<String> actions, String at) {
        JsonNode schema = tool.get("inputSchema");
        if (actions.isEmpty() || schema == null || !schema.isObject()) {
            return;
        }
        JsonNode properties = schema.get("properties");
        if (properties == null || properties.get("action") == null) {
            warning(at + ".inputSchema", "the tool declares actions but its inputSchema has no \"action\" property",
                    "add \"action\": {\"type\": \"string\", \"enum\": " + actions + "} to \"properties\" and to"
                    + " \"required\"");
        }
    }

    private long timeout(JsonNode node, String at) {
        if (node == null) {
            return Tool.DEFAULT_TIMEOUT_MS;
        }
        if (!node.canConvertToExactIntegral() || !node.canConvertToLong() || node.asLong() < 1
                || node.asLong() > MAX_TIMEOUT_MS) {
            error(at, "timeoutMs " + node + " is not a whole number of milliseconds from 1 to " + MAX_TIMEOUT_MS
                    + " (24 h)", "give the budget of one call in milliseconds, e.g. 30000, or leave it out (default "
                    + Tool.DEFAULT_TIMEOUT_MS + ")");
            return Tool.DEFAULT_TIMEOUT_MS;
        }
        return node.asLong();
    }

    private String summary(JsonNode node, String at) {
        if (node == null) {
            return "";
        }
        if (!node.isTextual() || node.textValue().contains("\n") || node.textValue().contains("\r")) {
            error(at, "summary must be one line of text", "write the summary as a single-line string");
            return "";
        }
        return node.textValue();
    }

    private String requiredText(JsonNode object, String key, String at, String fix) {
        JsonNode node = object.get(key);
        if (node == null || !node.isTextual() || node.textValue().isBlank()) {
            error(at, "\"" + key + "\" must be a non-empty string", fix);
            return null;
        }
        return node.textValue();
    }

    private void unknownKeys(JsonNode object, Set<String> known, String prefix) {
        for (Iterator<String> keys = object.fieldNames(); keys.hasNext();) {
            String key = keys.next();
            if (!known.contains(key)) {
                warning(prefix + key, "unknown key '" + key + "' is ignored", "remove it, or check its spelling"
                        + " against " + new java.util.TreeSet<>(known));
            }
        }
    }

    private void error(String at, String what, String fix) {
        errors.add(new Problem(where(at), what, fix));
    }

    private void warning(String at, String what, String fix) {
        warnings.add(new Problem(where(at), what, fix));
    }

    private String where(String at) {
        return at.isEmpty() ? file : file + ": " + at;
    }
}
