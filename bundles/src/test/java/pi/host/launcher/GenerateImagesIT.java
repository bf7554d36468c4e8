package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GenerateImages through the real {@code pi-host serve --stdio} process (spec §12): the host authorizes
 * (mode matrix, card, audit), the client executes ({@code images.request} → {@code images.resolve}), an abort
 * tells the client ({@code images.cancelled}), and Plan and Goal deny it even under auto.
 */
class GenerateImagesIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    private static String session(HostProcess host, Path project, String mode, String permissionMode) throws Exception {
        return session(host, project, mode, permissionMode, true);
    }

    private static String session(HostProcess host, Path project, String mode, String permissionMode,
            boolean makesImages) throws Exception {
        if (makesImages) {
            assertThat(host.call("images.attach", "{}").get("attached").asBoolean()).isTrue();
        }
        String session = host.call("session.create", "{\"projectRoot\":\"" + project + "\",\"mode\":\"" + mode
                + "\",\"permissionMode\":\"" + permissionMode + "\"}").get("sessionId").asText();
        if (mode.equals("agent")) {
            JsonNode found = host.tool(session, "search", "ToolSearch", "{\"query\":\"GenerateImages\"}");
            assertThat(found.get("details").get("addedToolNames").toString()).isEqualTo("[\"GenerateImages\"]");
        }
        return session;
    }

    private static JsonNode imagesRequest(HostProcess host, String callId) {
        return host.awaitMessage(m -> "images.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).get("params");
    }

    private static long imagesRequests(HostProcess host) {
        return host.messages().stream().filter(m -> "images.request".equals(m.path("method").asText())).count();
    }

    @Test
    void anApprovedCallAsksTheClientAndReturnsTheImagesItMade() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host, project, "agent", "ask");
            int id = host.startTool(session, "g1", "GenerateImages", "{\"prompt\":\"a lighthouse at dusk\",\"count\":1}");
            JsonNode card = host.card("g1");
            assertThat(card.get("toolName").asText()).isEqualTo("GenerateImages");
            assertThat(card.get("risk").asText()).isEqualTo("high");
            assertThat(imagesRequests(host)).as("nothing is asked before the card is answered").isZero();
            host.resolve(card, "allow-once");

            JsonNode request = imagesRequest(host, "g1");
            assertThat(request.get("sessionId").asText()).isEqualTo(session);
            assertThat(request.get("prompt").asText()).isEqualTo("a lighthouse at dusk");
            assertThat(request.get("options").toString()).isEqualTo("{\"count\":1,\"size\":\"auto\"}");
            Path scratch = Path.of(request.get("scratchDir").asText());
            Path png = Files.write(Files.createDirectories(scratch.resolve("images")).resolve("lighthouse.png"),
                    new byte[] {(byte) 0x89, 'P', 'N', 'G'});
            String requestId = request.get("requestId").asText();

            Path outside = Files.writeString(project.resolve("notes.txt"), "not an image of the scratch dir");
            JsonNode refused = host.request(host.nextRequestId(), "images.resolve", "{\"requestId\":\"" + requestId
                    + "\",\"images\":[{\"path\":\"" + outside + "\"}]}");
            assertThat(refused.get("error").get("code").asInt()).isEqualTo(-32602);
            assertThat(refused.get("error").get("message").asText()).contains("is not a file below the session's"
                    + " scratch dir");

            host.call("images.resolve", "{\"requestId\":\"" + requestId + "\",\"images\":[{\"path\":\"" + png
                    + "\",\"mimeType\":\"image/png\"}]}");
            JsonNode r = host.result(id);
            assertThat(r.get("ok").asBoolean()).as(r.toString()).isTrue();
            assertThat(r.get("details").get("images").get(0).get("path").asText()).isEqualTo(png.toRealPath().toString());
            assertThat(r.get("details").get("images").get(0).get("bytes").asInt()).isEqualTo(4);
            JsonNode audit = host.auditRow(session, "g1");
            assertThat(audit.get("decision").asText()).isEqualTo("allow");
            assertThat(audit.get("prompted").asBoolean()).isTrue();

            // the model can open what the client made: it is in the session's own scratch dir
            JsonNode read = host.okWithoutCard(session, "r1", "Read", "{\"path\":\"" + png + "\"}");
            assertThat(read.get("root").asText()).isEqualTo("scratch");
        }
    }

    @Test
    void aDeniedCardNeverAsksTheClient() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host, project, "agent", "ask");
            host.denyCard(session, "g1", "GenerateImages", "{\"prompt\":\"a cat\"}");
            assertThat(imagesRequests(host)).isZero();
            assertThat(host.auditRow(session, "g1").get("decision").asText()).isEqualTo("deny");
        }
    }

    /** Pins the cancellation path: tools.abort ends the wait and tells the client, whose late answer is refused. */
    @Test
    void anAbortCancelsTheRequestAndTellsTheClient() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host, project, "agent", "auto");
            int id = host.startTool(session, "g1", "GenerateImages", "{\"prompt\":\"a cat\"}");
            String requestId = imagesRequest(host, "g1").get("requestId").asText();
            host.call("tools.abort", "{\"sessionId\":\"" + session + "\",\"toolCallId\":\"g1\",\"toolName\":"
                    + "\"GenerateImages\"}");
            JsonNode cancelled = host.awaitMessage(m -> "images.cancelled".equals(m.path("method").asText()))
                    .get("params");
            assertThat(cancelled.get("requestId").asText()).isEqualTo(requestId);
            assertThat(cancelled.get("reason").asText()).isEqualTo("aborted");
            assertThat(host.result(id).get("errorCode").asText()).isEqualTo("TOOL_ABORTED");
            JsonNode late = host.request(host.nextRequestId(), "images.resolve", "{\"requestId\":\"" + requestId
                    + "\",\"error\":{\"message\":\"too late\"}}");
            assertThat(late.get("error").get("code").asInt()).isEqualTo(-32602);
        }
    }

    /** Pins fail closed: a client that never said it makes images is denied after its card and asked nothing. */
    @Test
    void aClientThatNeverAttachedIsDeniedAndAskedNothing() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host, project, "agent", "auto", false);
            JsonNode r = host.tool(session, "g1", "GenerateImages", "{\"prompt\":\"a cat\"}");
            assertThat(r.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(r.get("content").get(0).get("text").asText()).contains("never sent images.attach")
                    .endsWith("nothing was made");
            assertThat(imagesRequests(host)).isZero();
            assertThat(data.resolve("scratch").resolve(session)).as("nothing was made for it").doesNotExist();
            assertThat(host.auditRow(session, "g1").get("errorCode").asText()).isEqualTo("TOOL_DENIED");
        }
    }

    @Test
    void aClientErrorIsATypedFailure() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host, project, "agent", "auto");
            int id = host.startTool(session, "g1", "GenerateImages", "{\"prompt\":\"a cat\",\"size\":\"1024x1024\"}");
            String requestId = imagesRequest(host, "g1").get("requestId").asText();
            host.call("images.resolve", "{\"requestId\":\"" + requestId + "\",\"error\":{\"message\":\"quota exceeded\","
                    + "\"code\":\"quota\"}}");
            JsonNode r = host.result(id);
            assertThat(r.get("errorCode").asText()).isEqualTo("TOOL_FAILED");
            assertThat(r.get("details").get("clientError").toString())
                    .isEqualTo("{\"message\":\"quota exceeded\",\"code\":\"quota\"}");
        }
    }

    /** Pins the mode matrix row: Plan and Goal deny GenerateImages before any card, even under auto. */
    @Test
    void planAndGoalDenyItEvenUnderAuto() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            for (String mode : new String[] {"plan", "goal"}) {
                String session = session(host, project, mode, "auto");
                JsonNode listing = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}");
                assertThat(listing.toString()).as(mode).doesNotContain("GenerateImages");
                JsonNode r = host.tool(session, "g-" + mode, "GenerateImages", "{\"prompt\":\"a cat\"}");
                assertThat(r.get("errorCode").asText()).as(mode).isEqualTo("MODE_DENIED");
                assertThat(host.auditRow(session, "g-" + mode).get("decision").asText()).isEqualTo("mode-deny");
                assertThat(host.cards("g-" + mode)).isZero();
            }
            assertThat(imagesRequests(host)).isZero();
        }
    }
}
