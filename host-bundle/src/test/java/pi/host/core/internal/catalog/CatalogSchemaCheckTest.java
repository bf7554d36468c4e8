package pi.host.core.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import pi.host.api.Tool;
import pi.host.api.ToolResult;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.spi.Builtin;

/**
 * Which schemas the catalog checks against their meta-schema at run time: a plugin's and an MCP server's
 * (untrusted input), not a builtin's (the host's own, checked at build time by BuiltinSchemasIT), with
 * "builtin" as the registry decides it from the launcher's record.
 */
class CatalogSchemaCheckTest {

    private static final String READ_SCHEMA = "{\"type\":\"object\",\"properties\":{"
            + "\"path\":{\"type\":\"string\"},\"offset\":{\"type\":\"integer\",\"minimum\":1}},"
            + "\"additionalProperties\":false}";

    /** Breaks the draft 2020-12 meta-schema: "strng" is none of its simple types. */
    private static final String BAD_SCHEMA = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"strng\"}}}";

    private static final String BAD_SCHEMA_ERROR = "the tool's input schema is invalid: schema does not conform to"
            + " its meta-schema https://json-schema.org/draft/2020-12/schema: schema/properties/path/type: does not"
            + " have a value in the enumeration [\"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\","
            + " \"string\"]; schema/properties/path/type: string found, array expected";

    private static JsonNode json(String text) throws Exception {
        return Json.mapper().readTree(text);
    }

    private static RegisteredTool only(ToolRegistry registry) {
        assertThat(registry.all()).as("the registry took the tool").hasSize(1);
        return registry.all().iterator().next();
    }

    private static RegisteredTool builtinRead(ToolRegistry registry) {
        return registered(registry, "pi.host.tools", READ_SCHEMA, ToolOrigin.BUILTIN,
                Tool.NAME, "Read", Tool.RISK, "low", Builtin.KIND, "READ");
    }

    private static RegisteredTool pluginTool(ToolRegistry registry, String schema) {
        return registered(registry, "pi.host.plugins", schema, ToolOrigin.PLUGIN,
                Tool.NAME, "scan", Tool.RISK, "low", ToolRegistry.PLUGIN_ID, "todo-scan");
    }

    private static RegisteredTool mcpTool(ToolRegistry registry, String schema) {
        return registered(registry, "pi.host.mcp", schema, ToolOrigin.MCP,
                Tool.NAME, "read_file", ToolRegistry.MCP_SERVER, "fs", ToolRegistry.MCP_DEFINITION_HASH, "h1");
    }

    /** Registers a tool from {@code bundle} and checks the registry gave it {@code origin}. */
    private static RegisteredTool registered(ToolRegistry registry, String bundle, String schema, ToolOrigin origin,
            Object... properties) {
        Registered.register(registry, bundle, Registered.provider(schema, call -> ToolResult.ok("ran")), properties);
        RegisteredTool tool = only(registry);
        assertThat(tool.origin()).isEqualTo(origin);
        return tool;
    }

    /** Pins issue 19 (schema2): a builtin's first call loaded and compiled the draft 2020-12 meta-schema. */
    @Test
    void aBuiltinsFirstCallChecksItsArgumentsWithoutLoadingAnyMetaSchema() throws Exception {
        ToolRegistry registry = Registered.registry();
        Catalog catalog = new Catalog(registry);
        RegisteredTool read = builtinRead(registry);

        assertThat(catalog.validate(read, json("{\"path\":\"a\",\"offset\":2}"))).isEmpty();
        assertThat(catalog.validate(read, json("{\"path\":\"a\",\"offset\":0}")))
                .singleElement().asString().startsWith("arguments/offset: ");
        assertThat(catalog.metaSchemaLoads()).as("meta-schema documents loaded").isZero();
    }

    @Test
    void aPluginsSchemaIsCheckedAgainstItsMetaSchemaAtRunTime() throws Exception {
        ToolRegistry registry = Registered.registry();
        Catalog catalog = new Catalog(registry);
        RegisteredTool tool = pluginTool(registry, READ_SCHEMA);

        assertThat(catalog.validate(tool, json("{\"path\":\"a\"}"))).isEmpty();
        assertThat(catalog.metaSchemaLoads()).as("meta-schema documents loaded").isPositive();
    }

    @Test
    void aPluginsBadSchemaIsRefusedWithItsMetaSchemaError() throws Exception {
        ToolRegistry registry = Registered.registry();
        Catalog catalog = new Catalog(registry);
        RegisteredTool tool = pluginTool(registry, BAD_SCHEMA);

        assertThat(catalog.describe(tool).usable()).isFalse();
        assertThat(catalog.validate(tool, json("{\"path\":\"a\"}"))).containsExactly(BAD_SCHEMA_ERROR);
        assertThat(catalog.admitted(pi.host.core.internal.policy.OperatingMode.AGENT)).isEmpty();
    }

    @Test
    void anMcpServersBadSchemaIsRefusedWithItsMetaSchemaError() throws Exception {
        ToolRegistry registry = Registered.registry();
        Catalog catalog = new Catalog(registry);
        RegisteredTool tool = mcpTool(registry, BAD_SCHEMA);

        assertThat(catalog.validate(tool, json("{\"path\":\"a\"}"))).containsExactly(BAD_SCHEMA_ERROR);
    }

    /** A builtin and a plugin in one catalog: only the plugin's schema makes the validator load a meta-schema. */
    @Test
    void theMetaSchemaIsLoadedForThePluginNotForTheBuiltin() throws Exception {
        ToolRegistry registry = Registered.registry();
        Catalog catalog = new Catalog(registry);
        RegisteredTool read = builtinRead(registry);
        Registered.register(registry, "pi.host.plugins", Registered.provider(READ_SCHEMA, call -> ToolResult.ok("ran")),
                Tool.NAME, "scan", Tool.RISK, "low", ToolRegistry.PLUGIN_ID, "todo-scan");
        RegisteredTool plugin = registry.all().stream().filter(t -> t.origin() == ToolOrigin.PLUGIN).findFirst()
                .orElseThrow();

        assertThat(catalog.validate(read, json("{\"path\":\"a\"}"))).isEmpty();
        assertThat(catalog.metaSchemaLoads()).isZero();
        assertThat(catalog.validate(plugin, json("{\"path\":\"a\"}"))).isEmpty();
        assertThat(catalog.metaSchemaLoads()).isPositive();
    }
}
