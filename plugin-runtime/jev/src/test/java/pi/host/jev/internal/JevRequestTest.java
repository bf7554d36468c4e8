package pi.host.jev.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the schema cannot say about the questions, and the 24 KiB bound of the serialized request. */
class JevRequestTest {

    private static Map<String, Object> question(String id, String type, List<String> options) {
        return options == null ? Map.of("id", id, "text", "q", "type", type)
                : Map.of("id", id, "text", "q", "type", type, "options", options);
    }

    private static Map<String, Object> arguments(Object state, Object... questions) {
        return Map.of("state", state, "questions", List.of(questions));
    }

    @Test
    void idsAreUnique() {
        assertThatThrownBy(() -> JevRequest.of(arguments(Map.of(), question("a", "boolean", null),
                question("a", "boolean", null)))).hasMessage("question id 'a' is used twice");
    }

    @Test
    void eachTypeTakesTheOptionsItNeeds() {
        assertThatThrownBy(() -> JevRequest.of(arguments(Map.of(), question("a", "boolean", List.of("y", "n")))))
                .hasMessageContaining("takes no options");
        assertThatThrownBy(() -> JevRequest.of(arguments(Map.of(), question("a", "enum", List.of("only")))))
                .hasMessageContaining("at least two options");
        assertThatThrownBy(() -> JevRequest.of(arguments(Map.of(), question("a", "string", null))))
                .hasMessageContaining("never writes text");
        assertThatThrownBy(() -> JevRequest.of(arguments(Map.of(), question("a", "number",
                List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"))))).hasMessageContaining("2 to 10");
        assertThatThrownBy(() -> JevRequest.of(arguments(Map.of(), question("a", "enum", List.of("x", "x")))))
                .hasMessageContaining("twice");
    }

    /**
     * Pins the key's other way out: the saved key is found wherever the arguments carry it (a value, a
     * name, nested, a question), also as JSON escapes it, so JevClassify never sends it in the body.
     */
    @Test
    void theSavedKeyIsFoundWhereverTheArgumentsCarryIt() throws Exception {
        String key = "ts-live-\"quoted\"\\back";
        Map<String, Object> boolq = question("a", "boolean", null);
        assertThat(JevRequest.of(arguments(Map.of("leak", "see " + key), boolq)).carries(key)).isTrue();
        assertThat(JevRequest.of(arguments(Map.of(key, 1), boolq)).carries(key)).isTrue();
        assertThat(JevRequest.of(arguments(Map.of("a", List.of(Map.of("b", key))), boolq)).carries(key)).isTrue();
        assertThat(JevRequest.of(arguments(Map.of(), Map.of("id", "a", "text", "is " + key + " valid?",
                "type", "boolean"))).carries(key)).isTrue();
        assertThat(JevRequest.of(arguments(Map.of("leak", "ts-live-"), boolq)).carries(key)).isFalse();
    }

    /** Pins the bound as the spec states it: the serialized request, 24 KiB, and not a byte more. */
    @Test
    void theBoundIsTheSerializedRequestUpToTwentyFourKibibytes() throws Exception {
        int overhead = JevRequest.of(arguments(Map.of("s", ""), question("a", "boolean", null))).size();
        JevRequest exact = JevRequest.of(arguments(Map.of("s", "x".repeat(JevRequest.MAX_BYTES - overhead)),
                question("a", "boolean", null)));
        assertThat(exact.size()).isEqualTo(24 * 1024);
        assertThat(exact.tooLarge()).isFalse();
        JevRequest over = JevRequest.of(arguments(Map.of("s", "x".repeat(JevRequest.MAX_BYTES - overhead + 1)),
                question("a", "boolean", null)));
        assertThat(over.tooLarge()).isTrue();
        // bytes, not characters: a multi-byte state counts as it is sent
        JevRequest wide = JevRequest.of(arguments(Map.of("s", "\u00e9".repeat(JevRequest.MAX_BYTES / 2)),
                question("a", "boolean", null)));
        assertThat(wide.tooLarge()).isTrue();
    }
}
