package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.core.internal.json.ErrorText;
import pi.host.core.internal.json.Json;

/**
 * Pins issue 12.7 at the connection: refusals echoed their input without bound (a 3.6 MB request was
 * answered with 23.8 MB), and every input bound was reported as "nesting deeper than 128 levels".
 */
class BoundedRefusalsTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final Map<String, RpcMethod> methods = Map.of(
            "echoInError", (params, caller) -> {
                throw RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND,
                        "no session " + params.node().path("id").asText());
            });
    private final JsonRpcConnection connection = new JsonRpcConnection(methods, pool, out::add, 8, () -> {
    });

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** The one answer to {@code line}, and its size on the wire. */
    private JsonNode answerTo(String line) throws Exception {
        out.clear();
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        connection.receive(bytes, 0, bytes.length);
        await().atMost(Duration.ofSeconds(30)).until(() -> out.size() == 1);
        return Json.mapper().readTree(out.get(0));
    }

    private static String message(JsonNode answer) {
        return answer.get("error").get("message").asText();
    }

    @Test
    void aStringOverTheBoundIsNamedAsATooLongString() throws Exception {
        String line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":\""
                + "y".repeat(Json.MAX_STRING_CHARS + 1) + "\"}}";
        JsonNode answer = answerTo(line);
        assertThat(answer.get("error").get("code").asInt()).isEqualTo(RpcException.PARSE_ERROR);
        assertThat(message(answer)).isEqualTo("parse error: a string value longer than 16777216 characters");
        assertThat(out.get(0).length()).isLessThan(200);
    }

    @Test
    void aLongNameAndALongNumberAreNamedAsSuch() throws Exception {
        assertThat(message(answerTo("{\"" + "k".repeat(Json.MAX_NAME_CHARS + 1) + "\":1}")))
                .isEqualTo("parse error: a property name longer than 50000 characters");
        assertThat(message(answerTo("{\"a\":" + "1".repeat(Json.MAX_NUMBER_CHARS + 1) + "}")))
                .isEqualTo("parse error: a number longer than 1000 characters");
        assertThat(message(answerTo("[".repeat(Json.MAX_NESTING + 1))))
                .isEqualTo("parse error: nesting deeper than 128 levels");
    }

    @Test
    void anUnknownMethodsNameIsEchoedCut() throws Exception {
        JsonNode answer = answerTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + "m".repeat(1_000_000) + "\"}");
        assertThat(answer.get("error").get("code").asInt()).isEqualTo(RpcException.METHOD_NOT_FOUND);
        assertThat(message(answer)).isEqualTo("method not found: '" + "m".repeat(ErrorText.MAX_ECHO_CHARS)
                + "…' (1000000 characters)");
    }

    @Test
    void everyErrorMessageIsBoundedWhateverTheMethodEchoes() throws Exception {
        JsonNode answer = answerTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"echoInError\",\"params\":{\"id\":\""
                + "i".repeat(2_000_000) + "\"}}");
        assertThat(answer.get("error").get("data").get("errorCode").asText()).isEqualTo("SESSION_NOT_FOUND");
        assertThat(message(answer)).hasSize(ErrorText.MAX_CHARS).startsWith("no session iii")
                .endsWith("… [2000011 characters, cut]");
        assertThat(out.get(0).length()).isLessThan(ErrorText.MAX_CHARS + 200);
    }
}
