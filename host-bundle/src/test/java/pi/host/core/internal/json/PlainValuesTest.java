package pi.host.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainValuesTest {

    private static final String ARGS = "{\"s\":\"x\",\"i\":1,\"l\":12345678901,\"big\":123456789012345678901234567890,"
            + "\"d\":1.5,\"neg0\":-0.0,\"e\":1e300,\"t\":true,\"n\":null,\"empty\":{},\"none\":[],"
            + "\"list\":[1,\"a\",[2.5,null],{\"k\":false,\"l\":[12345678901]}],\"o\":{\"deep\":{\"x\":-7}}}";

    @Test
    void toMapGivesTheMappersValuesAndTypesAtEveryDepth() throws Exception {
        ObjectNode args = (ObjectNode) Json.mapper().readTree(ARGS);
        @SuppressWarnings("unchecked")
        Map<String, Object> expected = Json.mapper().treeToValue(args, Map.class);
        assertSameValuesAndTypes(PlainValues.toMap(args), expected, "arguments");
    }

    @Test
    void toMapLeavesOtherNodeKindsToTheMapper() throws Exception {
        ObjectNode args = (ObjectNode) Json.mapper().readTree("{\"a\":[1,{\"b\":2}]}");
        args.put("dec", new BigDecimal("1.25")).put("f", 2.5f).put("bin", new byte[] {1, 2});
        @SuppressWarnings("unchecked")
        Map<String, Object> expected = Json.mapper().treeToValue(args, Map.class);
        assertSameValuesAndTypes(PlainValues.toMap(args), expected, "arguments");
    }

    @Test
    void toTreeEqualsValueToTreeNodeForNode() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("s", "x");
        details.put("i", 3);
        details.put("l", 3L);
        details.put("big", new BigInteger("123456789012345678901234567890"));
        details.put("d", 0.25);
        details.put("b", false);
        details.put("n", null);
        details.put("list", new ArrayList<>(Arrays.asList(1, "a", null, List.of(2L), Map.of("k", true))));
        details.put("map", Map.of("deep", Map.of("x", -7)));
        JsonNode expected = Json.mapper().valueToTree(details);
        assertThat(PlainValues.toTree(details)).isEqualTo(expected);
        assertThat(PlainValues.toTree(Map.of())).isEqualTo(JsonNodeFactory.instance.objectNode());
    }

    @Test
    void toTreeLeavesOtherValuesToTheMapper() {
        for (Object odd : new Object[] {2.5f, Double.NaN, new BigDecimal("1.50"), (short) 4, Path.of("a", "b"),
            new int[] {1, 2}, Map.of(1, "non-string key"), List.of(Double.POSITIVE_INFINITY)}) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("plain", "x");
            details.put("odd", odd);
            assertThat(PlainValues.toTree(details)).as(String.valueOf(odd))
                    .isEqualTo(Json.mapper().valueToTree(details));
        }
    }

    @Test
    void toTreeRefusesWhatTheMapperRefuses() {
        Map<String, Object> details = Map.of("self", new Object());
        assertThatThrownBy(() -> Json.mapper().valueToTree(details)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PlainValues.toTree(details)).isInstanceOf(IllegalArgumentException.class);
    }

    @SuppressWarnings("unchecked")
    private static void assertSameValuesAndTypes(Object actual, Object expected, String at) {
        if (expected == null) {
            assertThat(actual).as(at).isNull();
            return;
        }
        assertThat(actual).as(at).isInstanceOf(expected.getClass()).isEqualTo(expected);
        if (expected instanceof Map) {
            Map<Object, ?> e = (Map<Object, ?>) expected;
            Map<Object, ?> a = (Map<Object, ?>) actual;
            assertThat(a.keySet()).as(at).containsExactlyElementsOf(e.keySet());
            e.forEach((k, v) -> assertSameValuesAndTypes(a.get(k), v, at + "/" + k));
        } else if (expected instanceof List) {
            List<?> e = (List<?>) expected;
            List<?> a = (List<?>) actual;
            assertThat(a).as(at).hasSameSizeAs(e);
            for (int i = 0; i < e.size(); i++) {
                assertSameValuesAndTypes(a.get(i), e.get(i), at + "/" + i);
            }
        }
    }
}
