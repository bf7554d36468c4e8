package pi.host.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.core.internal.json.Json;

class RedactorTest {

    private static JsonNode json(String text) throws Exception {
        return Json.mapper().readTree(text);
    }

    @Test
    void masksValuesOfSecretKeysAtAnyDepth() throws Exception {
        JsonNode in = json("{\"path\":\"a.txt\",\"apiKey\":\"k1\",\"nested\":{\"password\":\"p\",\"list\":"
                + "[{\"access_token\":\"t\"}]},\"Authorization\":\"Basic xyz\"}");
        JsonNode out = Redactor.redact(in);
        assertThat(out.get("path").asText()).isEqualTo("a.txt");
        assertThat(out.get("apiKey").asText()).isEqualTo(Redactor.MASK);
        assertThat(out.get("nested").get("password").asText()).isEqualTo(Redactor.MASK);
        assertThat(out.get("nested").get("list").get(0).get("access_token").asText()).isEqualTo(Redactor.MASK);
        assertThat(out.get("Authorization").asText()).isEqualTo(Redactor.MASK);
        assertThat(in.get("apiKey").asText()).as("input untouched").isEqualTo("k1");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstu",
        "AKIAIOSFODNN7EXAMPLE",
        "xoxb-1234567890-abcdefghij",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "Bearer abcdefghijklmnopqrstuvwxyz",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----"
    })
    void masksCredentialShapesInsideOrdinaryStrings(String secret) throws Exception {
        JsonNode out = Redactor.redact(Json.mapper().createObjectNode().put("command", "curl -H '" + secret + "' x"));
        assertThat(out.get("command").asText()).doesNotContain(secret).contains(Redactor.MASK).startsWith("curl");
    }

    @Test
    void masksPasswordsInUrls() {
        assertThat(Redactor.redact("git clone https://user:hunter2@example.com/r.git"))
                .doesNotContain("hunter2").contains(Redactor.MASK);
    }

    @Test
    void leavesOrdinaryTextAlone() {
        assertThat(Redactor.redact("ls -la src/main && echo tokenizer")).isEqualTo("ls -la src/main && echo tokenizer");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "sk-proj-abcdefghijklmnopqrstuvwxyz012345", "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstu", "glpat-abcdefghijklmnopqrstu",
        "xoxb-1234567890-abcdefghij", "AKIAIOSFODNN7EXAMPLE", "AIzaSyA1234567890abcdefghijklmnopqrstuv",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "Bearer abcdefghijklmnopqrstuvwxyz", "BEARER abcdefghijklmnopqrstuvwxyz", "bEaReR abcdefghijklmnopqrstuvwxyz",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow", "https://user:hunter2@example.com/r.git"
    })
    void theLiteralPrecheckNeverSkipsAStringTheRegexWouldMask(String secret) {
        String text = "before " + secret + " after";
        assertThat(Redactor.mayHoldSecret(text)).isTrue();
        assertThat(Redactor.redact(text)).doesNotContain(secret).contains(Redactor.MASK);
    }

    @Test
    void keysAreJudgedTheSameWhenSeenAgain() throws Exception {
        for (int i = 0; i < 3; i++) {
            JsonNode out = Redactor.redact(json("{\"MY_TOKEN\":\"v\",\"tokens_left\":3,\"token\":null,\"path\":\"p\"}"));
            assertThat(out.get("MY_TOKEN").asText()).isEqualTo(Redactor.MASK);
            assertThat(out.get("tokens_left").asText()).isEqualTo(Redactor.MASK);
            assertThat(out.get("token").isNull()).isTrue();
            assertThat(out.get("path").asText()).isEqualTo("p");
        }
    }

    /** Pins that the key in use is always masked, however often it was replaced while the host ran. */
    @Test
    void theSecretInUseStaysMaskedAfterManyReplacements() {
        String first = "first-key-" + System.nanoTime();
        Redactor.maskLiteral(first);
        for (int i = 0; i < 3 * Redactor.MAX_LITERALS; i++) {
            Redactor.maskLiteral("rotated-key-" + i + "-" + System.nanoTime());
        }
        String current = "current-key-" + System.nanoTime();
        Redactor.maskLiteral(current);
        assertThat(Redactor.redact("the key is " + current)).isEqualTo("the key is " + Redactor.MASK);
        Redactor.maskLiteral(first); // read again: in use again
        assertThat(Redactor.redact("the key is " + first)).isEqualTo("the key is " + Redactor.MASK);
        assertThat(Redactor.redact("the key is " + current)).as("the one before it too").doesNotContain(current);
    }

    @Test
    void argumentsWithNothingToMaskAreReturnedAsTheyAre() throws Exception {
        JsonNode in = json("{\"path\":\"a.txt\",\"limit\":5,\"token\":null,\"url\":\"https://example.com/x\","
                + "\"nested\":{\"list\":[\"gh is not a token\",1,true]}}");
        String before = in.toString();
        JsonNode out = Redactor.redact(in);
        assertThat(out).isSameAs(in);
        assertThat(in.toString()).isEqualTo(before);
    }

    @Test
    void aSecretDeepInsideStillGivesARedactedCopyAndLeavesTheInputAlone() throws Exception {
        JsonNode in = json("{\"path\":\"a.txt\",\"nested\":{\"list\":[\"x\","
                + "\"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"]}}");
        String before = in.toString();
        JsonNode out = Redactor.redact(in);
        assertThat(out).isNotSameAs(in);
        assertThat(out.toString()).isEqualTo("{\"path\":\"a.txt\",\"nested\":{\"list\":[\"x\",\"" + Redactor.MASK
                + "\"]}}");
        assertThat(in.toString()).isEqualTo(before);
    }
}
