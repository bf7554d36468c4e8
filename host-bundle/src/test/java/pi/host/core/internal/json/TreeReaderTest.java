package pi.host.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TreeReader gives every request line the tree the mapper's {@code readTree} gives it, node class by node
 * class and byte for byte when written, and refuses a bad line with the mapper's own exception and text.
 */
class TreeReaderTest {

    /** Lines the reader builds itself: every node kind, sizes of integer, escapes, nesting, blanks around. */
    @ParameterizedTest
    @ValueSource(strings = {
        "{\"jsonrpc\":\"2.0\",\"id\":17,\"method\":\"tools.execute\",\"params\":{\"sessionId\":\"s-1\",\"turnId\":\"t1\","
                + "\"toolCallId\":\"c1\",\"name\":\"Read\",\"arguments\":{\"path\":\"small.txt\"}}}",
        "{\"id\":\"a string id\",\"id2\":null,\"t\":true,\"f\":false,\"e\":{},\"a\":[],\"n\":[1,[2,[3,{\"x\":[]}]]]}",
        "{\"int\":2147483647,\"min\":-2147483648,\"long\":2147483648,\"negLong\":-9223372036854775808,"
                + "\"big\":9223372036854775808,\"huge\":-123456789012345678901234567890,\"zero\":0,\"negZero\":-0}",
        "{\"s\":\"quote \\\" backslash \\\\ tab \\t nl \\n nul \\u0000 é € \\ud83d\\ude00 lone \\ud800 \\u2028 end\"}",
        "{\"ü名\":\"é€😀\",\"\":\"\"}",
        "   \t {\"a\" : [ 1 , \"b\" , null ] }   ",
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"method\":\"b\",\"params\":[]}]",
        "[]",
        "\"a root string\"",
        "42",
        "12345678901234567890123",
        "true",
        "null",
    })
    void buildsTheMappersTree(String line) {
        assertSameTree(line, true);
    }

    /** Lines it leaves to the mapper (a floating-point number anywhere): still the mapper's tree. */
    @ParameterizedTest
    @ValueSource(strings = {
        "{\"x\":1.5}",
        "{\"a\":[1,2,{\"b\":-2.5e300}],\"c\":\"after\"}",
        "{\"tiny\":1e-400,\"big\":1e400,\"exp\":1E+2,\"frac\":0.1000000000000000055511151231257827}",
        "3.25",
    })
    void floatingPointNumbersAreTheMappersTree(String line) {
        assertSameTree(line, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t \r"})
    void aBlankLineIsNoValue(String line) throws Exception {
        assertThat(TreeReader.read(bytes(line), 0, bytes(line).length)).isNull();
        JsonNode mapper = Json.mapper().readTree(bytes(line), 0, bytes(line).length);
        assertThat(mapper == null || mapper.isMissingNode()).isTrue();
    }

    /** Bad lines: the same exception class and the same text (the connection answers with its original message). */
    @ParameterizedTest
    @ValueSource(strings = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"} x",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"} {}",
        "{\"a\":1}[",
        "1 2",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"echo\"}",
        "{\"p\":{\"arguments\":{\"path\":\"a\",\"path\":\"b\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,",
        "{\"a\":[1,2}",
        "{\"a\" 1}",
        "{a:1}",
        "{\"a\":'x'}",
        "{\"a\":NaN}",
        "{\"a\":01}",
        "{\"a\":\"unterminated",
        "{\"a\":\"ctrl \u0001\"}",
        "{\"a\":tru}",
        "not json",
        "}",
        "{\"x\":1.5} trailing",
    })
    void aBadLineIsTheMappersError(String line) {
        assertThat(TreeReader.built(bytes(line), 0, bytes(line).length)).isNull();
        assertSameError(bytes(line));
    }

    @Test
    void nestingPastTheBoundIsTheMappersError() throws Exception {
        String deep = "[".repeat(Json.MAX_NESTING + 1) + "]".repeat(Json.MAX_NESTING + 1);
        Throwable ours = assertSameError(bytes(deep));
        assertThat(ours).isInstanceOf(StreamConstraintsException.class);
        assertThat(Json.describe((StreamConstraintsException) ours)).isEqualTo("nesting deeper than 128 levels");
        String atTheBound = "{\"a\":" + "[".repeat(Json.MAX_NESTING - 1) + "]".repeat(Json.MAX_NESTING - 1) + "}";
        assertSameTree(atTheBound, true);
    }

    @Test
    void aNumberPastTheBoundIsTheMappersError() {
        Throwable ours = assertSameError(bytes("{\"n\":" + "9".repeat(Json.MAX_NUMBER_CHARS + 1) + "}"));
        assertThat(ours).isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void readsOnlyItsSliceOfTheBuffer() throws Exception {
        byte[] buffer = bytes("xx{\"a\":[1,\"b\"]}yy");
        assertThat(TreeReader.read(buffer, 2, buffer.length - 4)).isEqualTo(Json.mapper().readTree("{\"a\":[1,\"b\"]}"));
    }

    /** The mapper's tree, built from the tokens here ({@code builtHere}) or left to the mapper. */
    private static void assertSameTree(String line, boolean builtHere) {
        byte[] b = bytes(line);
        assertThat(TreeReader.built(b, 0, b.length) != null).as("built from the tokens").isEqualTo(builtHere);
        JsonNode ours;
        JsonNode mappers;
        try {
            ours = TreeReader.read(b, 0, b.length);
            mappers = Json.mapper().readTree(b, 0, b.length);
            assertThat(ours).isEqualTo(mappers);
            assertThat(shape(ours)).isEqualTo(shape(mappers));
            assertThat(Json.mapper().writeValueAsString(ours)).isEqualTo(Json.mapper().writeValueAsString(mappers));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Every node's place and class, depth first: the fields' order too, which equals does not compare. */
    private static List<String> shape(JsonNode node) {
        List<String> out = new ArrayList<>();
        walk(node, "$", out);
        return out;
    }

    private static void walk(JsonNode node, String at, List<String> out) {
        out.add(at + " " + node.getClass().getSimpleName());
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                walk(e.getValue(), at + "." + e.getKey(), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), at + "[" + i + "]", out);
            }
        }
    }

    private static Throwable assertSameError(byte[] line) {
        Throwable ours = catchThrowable(() -> TreeReader.read(line, 0, line.length));
        Throwable mappers = catchThrowable(() -> Json.mapper().readTree(line, 0, line.length));
        assertThat(mappers).isInstanceOf(JacksonException.class);
        assertThat(ours).isNotNull().hasSameClassAs(mappers).hasMessage(mappers.getMessage());
        assertThat(((JacksonException) ours).getOriginalMessage())
                .isEqualTo(((JacksonException) mappers).getOriginalMessage());
        return ours;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
