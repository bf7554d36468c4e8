package pi.host.core.internal.args;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.core.internal.json.Json;

class ArgumentAliasesTest {

    /** What the builtins declare (@Builtin aliases): path/file_path, pattern/query. */
    private static List<ArgumentAliases.Alias> declared(String tool) {
        return switch (tool) {
            case "Read", "Write", "Edit", "BrowserPreview" -> List.of(ArgumentAliases.Alias.parse("path=file_path"));
            case "Glob", "Grep" -> List.of(ArgumentAliases.Alias.parse("pattern=query"));
            default -> List.of();
        };
    }

    private static ObjectNode object(String text) throws Exception {
        return (ObjectNode) Json.mapper().readTree(text);
    }

    private static String args(String name, String value) {
        return "{\"" + name + "\": \"" + value + "\", \"limit\": 5}";
    }

    @ParameterizedTest
    @CsvSource({"Read, path", "Write, path", "Edit, path", "BrowserPreview, path", "Glob, pattern", "Grep, pattern"})
    void canonicalNameAlonePassesThrough(String tool, String canonical) throws Exception {
        ObjectNode input = object(args(canonical, "x"));
        assertThat(ArgumentAliases.fold(tool, declared(tool), input)).isEqualTo(input).isNotSameAs(input);
    }

    @ParameterizedTest
    @CsvSource({"Read, path, file_path", "Write, path, file_path", "Edit, path, file_path",
        "BrowserPreview, path, file_path", "Glob, pattern, query", "Grep, pattern, query"})
    void aliasAloneBecomesTheCanonicalName(String tool, String canonical, String alias) throws Exception {
        ObjectNode folded = ArgumentAliases.fold(tool, declared(tool), object(args(alias, "x")));
        assertThat(folded).isEqualTo(object(args(canonical, "x")));
        assertThat(folded.has(alias)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"Read, path, file_path", "Write, path, file_path", "Edit, path, file_path",
        "BrowserPreview, path, file_path", "Glob, pattern, query", "Grep, pattern, query"})
    void whenBothArePresentTheCanonicalWinsAndTheAliasIsDropped(String tool, String canonical, String alias)
            throws Exception {
        ObjectNode input = object("{\"" + alias + "\": \"from-alias\", \"" + canonical + "\": \"from-canonical\"}");
        ObjectNode folded = ArgumentAliases.fold(tool, declared(tool), input);
        assertThat(folded).isEqualTo(object("{\"" + canonical + "\": \"from-canonical\"}"));
    }

    @ParameterizedTest
    @CsvSource({"Read, path, file_path", "Write, path, file_path", "Edit, path, file_path",
        "BrowserPreview, path, file_path", "Glob, pattern, query", "Grep, pattern, query"})
    void neitherNameIsAnError(String tool, String canonical, String alias) {
        assertThatThrownBy(() -> ArgumentAliases.fold(tool, declared(tool), object("{\"limit\": 5}")))
                .isInstanceOf(ArgumentException.class)
                .hasMessageContaining(tool).hasMessageContaining("'" + canonical + "'")
                .hasMessageContaining("'" + alias + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bash", "new_context", "read", "GREP", "mcp__fs__read_text_file"})
    void otherToolsAreUntouched(String tool) throws Exception {
        ObjectNode input = object("{\"file_path\": \"a\", \"query\": \"b\", \"command\": \"ls\"}");
        ObjectNode folded = ArgumentAliases.fold(tool, declared(tool), input);
        assertThat(folded).isEqualTo(input).isNotSameAs(input);
        assertThat(ArgumentAliases.fold(tool, declared(tool), object("{}"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"file_path\": \"x\", \"nested\": {\"a\": [1]}}",
        "{\"path\": \"p\", \"file_path\": \"x\", \"query\": \"q\", \"nested\": {\"a\": [1]}}",
        "{\"path\": \"p\", \"nested\": {\"a\": [1]}}"
    })
    void inputIsNeverMutated(String text) throws Exception {
        for (String tool : new String[] {"Read", "Grep", "Bash"}) {
            assertInputUnchanged(tool, text);
        }
    }

    private static void assertInputUnchanged(String tool, String text) throws Exception {
        ObjectNode input = object(text);
        if (tool.equals("Grep")) {
            input.put("pattern", "p"); // Grep needs its own canonical or alias
        }
        ObjectNode before = input.deepCopy();
        ObjectNode folded = ArgumentAliases.fold(tool, declared(tool), input);
        folded.withObject("/nested").put("b", 2);
        folded.put("extra", true);
        assertThat(input).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "\"path\"", "1", "null", "true"})
    void nonObjectArgumentsAreAnError(String text) throws Exception {
        JsonNode arguments = Json.mapper().readTree(text);
        assertThatThrownBy(() -> ArgumentAliases.fold("Read", declared("Read"), arguments))
                .isInstanceOf(ArgumentException.class).hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> ArgumentAliases.fold("Bash", declared("Bash"), arguments))
                .isInstanceOf(ArgumentException.class).hasMessageContaining("must be a JSON object");
    }

    @Test
    void missingArgumentsAreAnError() {
        assertThatThrownBy(() -> ArgumentAliases.fold("Read", declared("Read"), null)).isInstanceOf(ArgumentException.class);
    }

    @Test
    void aliasValueKeepsItsType() throws Exception {
        // folding only renames; validation after folding judges the value
        ObjectNode folded = ArgumentAliases.fold("Read", declared("Read"), object("{\"file_path\": {\"deep\": [1, 2]}}"));
        assertThat(folded).isEqualTo(object("{\"path\": {\"deep\": [1, 2]}}"));
    }
}
