package pi.host.mcp.internal.elicit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An elicitation form as ask.request questions and the answers back; what does not fit is declined. */
class ElicitFormTest {

    private static Map<String, Object> form() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("color", Map.of("type", "string", "enum", List.of("r", "g"), "enumNames", List.of("Red", "Green")));
        props.put("count", Map.of("type", "integer", "title", "How many"));
        props.put("ratio", Map.of("type", "number"));
        props.put("ok", Map.of("type", "boolean", "description", "Agree"));
        props.put("name", Map.of("type", "string"));
        props.put("tags", Map.of("type", "array", "items", Map.of("anyOf", List.of(Map.of("const", "a", "title", "A"),
                Map.of("const", "b", "title", "B")))));
        return Map.of("type", "object", "properties", props, "required", List.of("color", "ok"));
    }

    @Test
    void questionsAndContent() {
        ElicitForm f = ElicitForm.of("srv", "Tell me", form()).orElseThrow();
        assertThat(f.questions()).hasSize(6);
        assertThat(f.questions().get(0).question()).isEqualTo("The MCP server 'srv' asks: Tell me\ncolor");
        assertThat(f.questions().get(0).options()).containsExactly("Red", "Green");
        assertThat(f.questions().get(1).question()).isEqualTo("How many (optional)");
        assertThat(f.questions().get(3).question()).isEqualTo("ok: Agree");
        assertThat(f.questions().get(3).options()).containsExactly("yes", "no");
        assertThat(f.questions().get(5).multiSelect()).isTrue();
        Map<String, Object> content = f.content(Arrays.asList("Green", "3", "0.5", "no", null, List.of("B"))).orElseThrow();
        assertThat(content).containsExactly(Map.entry("color", "g"), Map.entry("count", 3L), Map.entry("ratio", 0.5),
                Map.entry("ok", false), Map.entry("tags", List.of("b")));
    }

    @Test
    void answersThatDoNotFitAreNotGuessed() {
        ElicitForm f = ElicitForm.of("srv", "m", form()).orElseThrow();
        assertThat(f.content(Arrays.asList("Blue", null, null, "yes", null, null))).as("not an option").isEmpty();
        assertThat(f.content(Arrays.asList("Red", "many", null, "yes", null, null))).as("not a number").isEmpty();
        assertThat(f.content(Arrays.asList(null, null, null, "yes", null, null))).as("required").isEmpty();
        assertThat(f.content(List.of("Red"))).as("one answer per question").isEmpty();
    }

    /** Pins a skipped form: a user who answered none of its questions declined it, even when none is required. */
    @Test
    void aFormWithNoAnswerAtAllIsDeclinedEvenIfNothingIsRequired() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("note", Map.of("type", "string"));
        props.put("ok", Map.of("type", "boolean"));
        ElicitForm f = ElicitForm.of("srv", "m", Map.of("type", "object", "properties", props)).orElseThrow();
        assertThat(f.content(Arrays.asList(null, null))).as("skipped").isEmpty();
        assertThat(f.content(Arrays.asList("", List.of()))).as("blank answers").isEmpty();
        assertThat(f.content(Arrays.asList("a note", null))).as("one answer is an answer").isPresent();
    }

    @Test
    void formsThatCannotBeAskedAreRefused() {
        assertThat(ElicitForm.of("s", "m", Map.of("type", "object", "properties",
                Map.of("nested", Map.of("type", "object"))))).isEmpty();
        assertThat(ElicitForm.of("s", "m", Map.of("type", "object", "properties", Map.of()))).isEmpty();
        Map<String, Object> many = new LinkedHashMap<>();
        for (int i = 0; i <= ElicitForm.MAX_FIELDS; i++) {
            many.put("f" + i, Map.of("type", "string"));
        }
        assertThat(ElicitForm.of("s", "m", Map.of("type", "object", "properties", many))).isEmpty();
    }
}
