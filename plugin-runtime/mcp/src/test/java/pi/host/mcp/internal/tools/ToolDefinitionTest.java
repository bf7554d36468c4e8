package pi.host.mcp.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the model is offered of a server's tool, and the hash the rug-pull guard compares. */
class ToolDefinitionTest {

    private static McpSchema.Tool tool(String description, Map<String, Object> schema, Boolean readOnly) {
        McpSchema.ToolAnnotations annotations = readOnly == null ? null
                : new McpSchema.ToolAnnotations(null, readOnly, null, null, null, null);
        return McpSchema.Tool.builder().name("t").description(description).inputSchema(schema).annotations(annotations)
                .build();
    }

    private static Map<String, Object> schema(String... keysInOrder) {
        Map<String, Object> props = new LinkedHashMap<>();
        for (String k : keysInOrder) {
            props.put(k, Map.of("type", "string"));
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", props);
        return s;
    }

    /** Pins hidden text in descriptions: control and format characters never reach the model. */
    @Test
    void descriptionsAreCleanedAndBounded() {
        assertThat(ToolDefinition.clean("a\u001b[31mb\u0007c\r\nd\te\u202ef\u200bg\uE000h", 100))
                .isEqualTo("a[31mbc\nd\tefgh");
        String cut = ToolDefinition.clean("x".repeat(5000), ToolDefinition.MAX_DESCRIPTION);
        assertThat(cut).hasSize(ToolDefinition.MAX_DESCRIPTION).endsWith("...");
        assertThat(ToolDefinition.clean("😀".repeat(10), 9)).isEqualTo("😀😀😀...");
        ToolDefinition d = ToolDefinition.of(tool("First line\u0000\nsecond", schema("a"), null));
        assertThat(d.description()).isEqualTo("First line\nsecond");
        assertThat(d.summary()).isEqualTo("First line");
    }

    /** Pins the rug pull's blind spot: any change of description, schema or annotations changes the hash. */
    @Test
    void theHashCoversDescriptionSchemaAndAnnotations() {
        String base = ToolDefinition.of(tool("Reads.", schema("a", "b"), true)).hash();
        assertThat(base).startsWith("sha256:");
        assertThat(ToolDefinition.of(tool("Reads.", schema("b", "a"), true)).hash()).as("key order").isEqualTo(base);
        assertThat(ToolDefinition.of(tool("Reads. And more.", schema("a", "b"), true)).hash()).isNotEqualTo(base);
        assertThat(ToolDefinition.of(tool("Reads.\u200b", schema("a", "b"), true)).hash())
                .as("a change the cleaning hides is still a change").isNotEqualTo(base);
        assertThat(ToolDefinition.of(tool("Reads.", schema("a", "c"), true)).hash()).isNotEqualTo(base);
        assertThat(ToolDefinition.of(tool("Reads.", schema("a", "b"), false)).hash()).isNotEqualTo(base);
        assertThat(ToolDefinition.of(tool("Reads.", schema("a", "b"), null)).hash()).isNotEqualTo(base);
    }

    @Test
    void annotationsAreKeptForTheCardAndAHugeSchemaIsRefused() {
        assertThat(ToolDefinition.of(tool("d", schema("a"), true)).annotations()).isEqualTo("{\"readOnlyHint\":true}");
        Map<String, Object> huge = schema("a");
        huge.put("description", "x".repeat(ToolDefinition.MAX_SCHEMA));
        assertThatThrownBy(() -> ToolDefinition.of(tool("d", huge, null))).hasMessageContaining("larger than");
    }
}
