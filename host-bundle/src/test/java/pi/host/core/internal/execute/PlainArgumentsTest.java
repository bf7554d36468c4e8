package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.json.Json;

class PlainArgumentsTest {

    /** Providers see the same values (and Java types) as when the pipeline used convertValue. */
    @Test
    void sameMapsListsAndNumberTypesAsConvertValue() throws Exception {
        ObjectNode args = (ObjectNode) Json.mapper().readTree("{\"s\":\"x\",\"i\":1,\"l\":12345678901,"
                + "\"big\":123456789012345678901234567890,\"d\":1.5,\"e\":1e300,\"t\":true,\"n\":null,"
                + "\"list\":[1,\"a\",[2.5],{\"k\":false}],\"o\":{\"deep\":{\"x\":-7}}}");
        Map<String, Object> plain = pi.host.core.internal.json.PlainValues.toMap(args);
        @SuppressWarnings("unchecked")
        Map<String, Object> converted = Json.mapper().convertValue(args, Map.class);
        assertThat(plain).isEqualTo(converted);
        assertThat(plain.keySet()).containsExactlyElementsOf(converted.keySet());
        for (String key : converted.keySet()) {
            Object value = converted.get(key);
            assertThat(plain.get(key)).as(key).isEqualTo(value);
            if (value != null) {
                assertThat(plain.get(key)).as(key).isInstanceOf(value.getClass());
            }
        }
    }
}
