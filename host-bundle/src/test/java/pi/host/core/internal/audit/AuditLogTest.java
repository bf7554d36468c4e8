package pi.host.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.core.internal.json.Json;

class AuditLogTest {

    /**
     * describe() serialises once where it can; its hash and preview must stay what hash() and
     * preview() give, or rows of the same call before and after the change would no longer match.
     */
    @ParameterizedTest
    @ValueSource(strings = {"hello", "", "a\tb\nc\u0001\"q\"\\", "Grüße, 日本語, \u2028",
        "emoji 😀 and a lone \ud83d surrogate", "long"})
    void describeGivesTheSameHashAndPreviewAsEachAlone(String value) {
        ObjectNode args = Json.mapper().createObjectNode().put("text", value).put("n", 12).put("x", 1.5);
        args.putArray("list").add(true).addNull().add(value);
        if (value.equals("long")) {
            args.put("text", "x".repeat(AuditLog.PREVIEW_CHARS - 12) + "😀😀😀 and more");
        }
        JsonNode redacted = Redactor.redact(args);
        AuditLog.Arguments both = AuditLog.describe(redacted);
        assertThat(both.hash()).isEqualTo(AuditLog.hash(redacted));
        assertThat(both.preview()).isEqualTo(AuditLog.preview(redacted));
    }
}
