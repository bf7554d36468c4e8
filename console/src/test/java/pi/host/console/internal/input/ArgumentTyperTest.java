package pi.host.console.internal.input;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class ArgumentTyperTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode schema() throws Exception {
        return JSON.readTree("{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},"
                + "\"limit\":{\"type\":\"integer\"},\"timeout\":{\"type\":\"number\"},\"flag\":{\"type\":\"boolean\"},"
                + "\"todos\":{\"type\":\"array\"},\"content\":{\"type\":\"string\"},\"either\":{\"type\":[\"integer\",\"string\"]}}}");
    }

    private static ObjectNode typed(String line, JsonNode schema) throws Exception {
        return ArgumentTyper.arguments((Input.ToolCall) LineParser.parse(line), schema);
    }

    @Test
    void bareWordsTakeTheTypeTheSchemaDeclares() throws Exception {
        ObjectNode a = typed("T pattern=123 limit=5 timeout=1.5 flag=true either=7", schema());
        assertThat(a.get("pattern").isTextual()).isTrue();
        assertThat(a.get("pattern").asText()).isEqualTo("123");
        assertThat(a.get("limit").isInt()).isTrue();
        assertThat(a.get("timeout").isDouble()).isTrue();
        assertThat(a.get("flag").isBoolean()).isTrue();
        assertThat(a.get("either").isTextual()).as("a bare word fits the string alternative").isTrue();
    }

    @Test
    void aWordThatIsNoLiteralStaysTextForTheHostToRefuse() throws Exception {
        ObjectNode a = typed("T limit=five flag=yes", schema());
        assertThat(a.get("limit").asText()).isEqualTo("five");
        assertThat(a.get("flag").isTextual()).isTrue();
    }

    @Test
    void quotedIsAlwaysTextAndJsonIsTextWhereTheSchemaSaysString() throws Exception {
        ObjectNode a = typed("T limit=\"5\" content={\"a\": 1} todos=[{\"content\":\"x\"}]", schema());
        assertThat(a.get("limit").isTextual()).isTrue();
        assertThat(a.get("content").asText()).isEqualTo("{\"a\": 1}");
        assertThat(a.get("todos").isArray()).isTrue();
        assertThat(a.get("todos").get(0).get("content").asText()).isEqualTo("x");
    }

    @Test
    void withoutASchemaLiteralsAreJsonAndEverythingElseText() throws Exception {
        ObjectNode a = typed("T n=-3 b=false z=null word=abc obj={\"k\":1}", null);
        assertThat(a.get("n").asInt()).isEqualTo(-3);
        assertThat(a.get("b").isBoolean()).isTrue();
        assertThat(a.get("z").isNull()).isTrue();
        assertThat(a.get("word").asText()).isEqualTo("abc");
        assertThat(a.get("obj").isObject()).isTrue();
    }

    @Test
    void aJsonLineIsPassedOnAsItIs() throws Exception {
        ObjectNode a = typed("T {\"limit\": \"5\"}", schema());
        assertThat(a.get("limit").isTextual()).isTrue();
    }

    @Test
    void usageLeavesAliasesOutAndMarksWhatIsOptional() throws Exception {
        JsonNode read = JSON.readTree("{\"properties\":{\"path\":{\"type\":\"string\"},\"file_path\":{\"type\":\"string\","
                + "\"description\":\"Alias of path\"},\"outputMode\":{\"enum\":[\"content\",\"files\"]},"
                + "\"limit\":{\"type\":\"integer\"}},\"required\":[\"limit\"]}");
        assertThat(Usage.line("Read", read)).isEqualTo("Read [path=<string>] [outputMode=<content|files>] limit=<integer>");
        assertThat(Usage.names(read)).containsExactly("path", "file_path", "outputMode", "limit");
        assertThat(Usage.line("X", null)).isEqualTo("X key=value ...");
    }

    @Test
    void suggestionsAreCloseNamesOnly() {
        assertThat(Suggest.closest("Wrte", java.util.List.of("Read", "Write", "Edit"))).isEqualTo("Write");
        assertThat(Suggest.closest("grep", java.util.List.of("Grep", "Glob"))).isEqualTo("Grep");
        assertThat(Suggest.closest("Frobnicate", java.util.List.of("Read", "Write"))).isNull();
    }
}
