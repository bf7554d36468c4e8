package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 12.7 on the real process: a 3.6 MB request with many unknown keys was answered with a
 * 23.8 MB error text, and a string over the parser's bound was refused as "nesting deeper than 128
 * levels".
 */
class BoundedRefusalsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;
    @TempDir
    Path project;

    @Test
    void aRequestWithAHundredThousandUnknownKeysGetsTheFirstProblemsAndACount() throws Exception {
        Files.writeString(project.resolve("a.txt"), "a\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project + "\"}").get("sessionId")
                    .asText();
            ObjectNode arguments = JSON.createObjectNode().put("path", "a.txt");
            for (int i = 0; i < 100_000; i++) {
                arguments.put(String.format("k%07d", i), "v".repeat(24));
            }
            String request = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                    + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"c1\",\"name\":\"Read\",\"arguments\":"
                    + JSON.writeValueAsString(arguments) + "}}";
            assertThat(request.length()).isGreaterThan(3_500_000);
            host.send(request);
            JsonNode result = host.response(7).get("result");

            assertThat(result.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            String text = result.get("content").get(0).get("text").asText();
            StringBuilder expected = new StringBuilder("invalid arguments for Read: ");
            for (int i = 0; i < 10; i++) {
                String key = String.format("k%07d", i);
                expected.append("arguments/").append(key).append(": property '").append(key)
                        .append("' is not defined in the schema and the schema does not allow additional properties; ");
            }
            assertThat(text).isEqualTo(expected.append("and 99990 more problems").toString());
            assertThat(JSON.writeValueAsString(host.response(7)).length()).as("the whole answer").isLessThan(4_000);
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }

    @Test
    void aStringOverTheBoundIsNamedAsATooLongString() throws Exception {
        try (HostProcess host = HostProcess.serve(data, "--max-request-bytes", String.valueOf(40 << 20))) {
            host.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"host.info\",\"params\":{\"a\":\""
                    + "x".repeat(20_000_000) + "\"}}");
            JsonNode answer = host.awaitMessage(m -> m.has("error"));
            assertThat(answer.get("error").get("code").asInt()).isEqualTo(-32700);
            assertThat(answer.get("error").get("message").asText())
                    .isEqualTo("parse error: a string value longer than 16777216 characters");
            assertThat(host.call("host.info", "{}").get("protocolVersion").asInt()).as("the next line is served")
                    .isEqualTo(1);
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }

    @Test
    void anUnknownMethodsNameIsEchoedCut() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode answer = host.request(9, "m".repeat(1_000_000), "{}");
            assertThat(answer.get("error").get("message").asText())
                    .isEqualTo("method not found: '" + "m".repeat(80) + "…' (1000000 characters)");
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }
}
