package pi.host.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * JsonText writes a tree to exactly the bytes the mapper's {@code writeValueAsString} gives it, for every
 * kind of node (the plain ones it writes itself, the others it leaves to the mapper) and for the text a
 * JSON string must escape: the answer, {@code tool.completed} and the audit row's arguments go out this way.
 */
class JsonTextTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Every node kind, nested, with strings that need escaping (controls, quotes, surrogates, a lone one). */
    private static ObjectNode everyKind() {
        ObjectNode o = NODES.objectNode();
        o.put("text", "plain");
        o.put("escaped", "quote \" backslash \\ tab \t newline \n nul \u0000 del \u007f slash / é € 😀 lone \ud800 end");
        o.put("int", 42);
        o.put("negative", -7);
        o.put("long", 1L << 40);
        o.put("bigInteger", new BigInteger("123456789012345678901234567890"));
        o.put("double", 1.5e-7);
        o.put("float", 2.5f);
        o.put("decimal", new BigDecimal("1.2300E+5"));
        o.put("short", (short) 3);
        o.put("true", true);
        o.put("false", false);
        o.putNull("null");
        o.set("javaNull", null);
        o.put("binary", new byte[] {0, 1, 2, (byte) 0xff});
        o.putPOJO("pojo", Map.of("k", List.of(1, "two")));
        o.putObject("emptyObject");
        o.putArray("emptyArray");
        o.putArray("array").add(1).add("two").addNull().add(3.25).addObject().put("deep", NODES.arrayNode().add(false));
        o.putObject("nested").putObject("again").put("", "empty name").put("näme \"q\"", 1);
        return o;
    }

    @Test
    void aTreeOfEveryKindIsWrittenToTheMappersBytes() throws Exception {
        ObjectNode tree = everyKind();

        assertThat(JsonText.of(tree)).isEqualTo(Json.mapper().writeValueAsString(tree));
    }

    @Test
    void aScalarOrAnArrayAtTheTopIsWrittenToTheMappersBytes() throws Exception {
        List<JsonNode> roots = List.of(NODES.textNode("x\u2028y"), NODES.numberNode(5), NODES.nullNode(),
                NODES.booleanNode(true), NODES.arrayNode().add(everyKind()).add(everyKind()), NODES.objectNode());

        for (JsonNode root : roots) {
            assertThat(JsonText.of(root)).as("%s", root).isEqualTo(Json.mapper().writeValueAsString(root));
        }
    }

    @Test
    void aLongStringPastTheGeneratorsBufferIsWrittenWhole() throws Exception {
        ObjectNode tree = NODES.objectNode().put("long", "ab\"c\n".repeat(40_000));

        assertThat(JsonText.of(tree)).isEqualTo(Json.mapper().writeValueAsString(tree));
    }

    @Test
    void aBodyWritesFieldByFieldAsItsTreeWouldBeWritten() throws Exception {
        ObjectNode tree = NODES.objectNode().put("a", 1).put("b", (String) null);
        tree.set("c", everyKind());

        String text = JsonText.write(out -> {
            out.writeStartObject();
            out.writeNumberField("a", 1);
            out.writeStringField("b", null);
            out.writeFieldName("c");
            JsonText.tree(out, everyKind());
            out.writeEndObject();
        });

        assertThat(text).isEqualTo(Json.mapper().writeValueAsString(tree));
    }
}
