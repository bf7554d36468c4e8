package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan mode end to end through the real {@code pi-host serve --stdio} process (ADR 0053): Agent →
 * EnterPlanMode → Write hard-denied → SubmitPlan (the artifact holds the submitted bytes) →
 * plans.resolve approve with accept-edits → Write runs without a card; and a restart that turns a
 * pending approval into interrupted.
 */
class PlanIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Non-ASCII, CRLF, a tab and a trailing LF: the artifact must hold exactly these bytes. */
    private static final String PLAN = "# Plan: café ✓ 計画\r\n\r\n1. Write `new.txt`\r\n\t- then stop\n";

    @TempDir
    Path data;
    @TempDir
    Path project;

    private final AtomicInteger ids = new AtomicInteger(100);

    private JsonNode call(HostProcess host, String method, String params) throws Exception {
        JsonNode answer = host.request(ids.incrementAndGet(), method, params);
        assertThat(answer.has("error")).as(method + " answered " + answer).isFalse();
        return answer.get("result");
    }

    private JsonNode error(HostProcess host, String method, String params) throws Exception {
        JsonNode answer = host.request(ids.incrementAndGet(), method, params);
        assertThat(answer.has("error")).as(method + " answered " + answer).isTrue();
        return answer.get("error");
    }

    private JsonNode run(HostProcess host, String session, String callId, String tool, ObjectNode args)
            throws Exception {
        ObjectNode p = JSON.createObjectNode().put("sessionId", session).put("turnId", "t1")
                .put("toolCallId", callId).put("name", tool);
        p.set("arguments", args);
        return call(host, "tools.execute", JSON.writeValueAsString(p));
    }

    private long cardsFor(HostProcess host, String callId) {
        return host.messages().stream().filter(m -> "permission.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).count();
    }

    private String mode(HostProcess host, String session) throws Exception {
        return call(host, "session.get", "{\"sessionId\":\"" + session + "\"}").get("mode").asText();
    }

    @Test
    void agentPlansSubmitsIsApprovedAndWritesWithoutACard() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}")
                    .get("sessionId").asText();

            // SubmitPlan is not an Agent tool
            JsonNode early = run(host, session, "c0", "SubmitPlan", JSON.createObjectNode().put("plan", "x"));
            assertThat(early.get("errorCode").asText()).isEqualTo("MODE_DENIED");

            // a transition must be alone in its batch: nothing runs
            JsonNode batch = call(host, "tools.executeBatch", "{\"sessionId\":\"" + session + "\",\"turnId\":\"t1\","
                    + "\"calls\":[{\"toolCallId\":\"b1\",\"name\":\"EnterPlanMode\",\"arguments\":{}},"
                    + "{\"toolCallId\":\"b2\",\"name\":\"Read\",\"arguments\":{\"path\":\".\"}}]}");
            assertThat(batch.get("results")).hasSize(2).allSatisfy(r ->
                    assertThat(r.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT"));
            assertThat(mode(host, session)).isEqualTo("agent");
            // ... and both refusals are audited like any call
            JsonNode refusals = call(host, "audit.query", "{\"sessionId\":\"" + session + "\"}").get("rows");
            assertThat(refusals).filteredOn(r -> "batch.solo".equals(r.path("rule").asText())).hasSize(2);

            JsonNode entered = run(host, session, "c1", "EnterPlanMode", JSON.createObjectNode());
            assertThat(entered.get("ok").asBoolean()).as(entered.toString()).isTrue();
            JsonNode state = host.awaitMessage(m -> "session.state".equals(m.path("method").asText())).get("params");
            assertThat(state.get("sessionId").asText()).isEqualTo(session);
            assertThat(state.get("mode").asText()).isEqualTo("plan");
            assertThat(state.get("planState").asText()).isEqualTo("planning");
            assertThat(mode(host, session)).isEqualTo("plan");

            // Plan hard-denies Write, and entering again is refused by the matrix
            JsonNode write = run(host, session, "c2", "Write", JSON.createObjectNode().put("path", "new.txt")
                    .put("content", "x"));
            assertThat(write.get("errorCode").asText()).isEqualTo("MODE_DENIED");
            assertThat(project.resolve("new.txt")).doesNotExist();
            assertThat(run(host, session, "c2b", "EnterPlanMode", JSON.createObjectNode()).get("errorCode")
                    .asText()).isEqualTo("MODE_DENIED");

            JsonNode submitted = run(host, session, "c3", "SubmitPlan", JSON.createObjectNode().put("plan", PLAN));
            assertThat(submitted.get("ok").asBoolean()).as(submitted.toString()).isTrue();
            String approvalId = submitted.get("details").get("approvalId").asText();
            String artifact = submitted.get("details").get("artifactPath").asText();
            assertThat(artifact).startsWith(".pi/plan/").endsWith(".md");
            assertThat(Files.readAllBytes(project.resolve(artifact))).isEqualTo(PLAN.getBytes(StandardCharsets.UTF_8));
            JsonNode request = host.awaitMessage(m -> "plan.approval.request".equals(m.path("method").asText()))
                    .get("params");
            assertThat(request.get("approvalId").asText()).isEqualTo(approvalId);
            assertThat(request.get("kind").asText()).isEqualTo("plan");
            assertThat(request.get("content").asText()).isEqualTo(PLAN);

            JsonNode pending = call(host, "plans.pending", "{\"sessionId\":\"" + session + "\"}").get("approvals");
            assertThat(pending).hasSize(1);
            assertThat(pending.get(0).get("status").asText()).isEqualTo("pending");

            // approve needs a permission mode; a foreign session is refused
            assertThat(error(host, "plans.resolve", "{\"approvalId\":\"" + approvalId
                    + "\",\"decision\":\"approve\"}").get("code").asInt()).isEqualTo(-32602);
            assertThat(error(host, "plans.resolve", "{\"approvalId\":\"" + approvalId
                    + "\",\"sessionId\":\"s_other\",\"decision\":\"approve\",\"permissionMode\":\"auto\"}")
                    .get("code").asInt()).isEqualTo(-32602);

            JsonNode resolved = call(host, "plans.resolve", "{\"approvalId\":\"" + approvalId + "\",\"sessionId\":\""
                    + session + "\",\"decision\":\"approve\",\"permissionMode\":\"accept-edits\"}");
            assertThat(resolved.get("status").asText()).isEqualTo("approved");
            host.awaitMessage(m -> "session.state".equals(m.path("method").asText())
                    && "agent".equals(m.path("params").path("mode").asText()));
            JsonNode got = call(host, "session.get", "{\"sessionId\":\"" + session + "\"}");
            assertThat(got.get("mode").asText()).isEqualTo("agent");
            assertThat(got.get("permissionMode").asText()).isEqualTo("accept-edits");

            // a duplicate resolution is refused
            assertThat(error(host, "plans.resolve", "{\"approvalId\":\"" + approvalId
                    + "\",\"decision\":\"reject\"}").get("code").asInt()).isEqualTo(-32602);

            // accept-edits: Write runs without a card
            JsonNode allowed = run(host, session, "c4", "Write", JSON.createObjectNode().put("path", "new.txt")
                    .put("content", "done"));
            assertThat(allowed.get("ok").asBoolean()).as(allowed.toString()).isTrue();
            assertThat(cardsFor(host, "c4")).isZero();
            assertThat(project.resolve("new.txt")).hasContent("done");
        }
    }

    @Test
    void goalModeSubmitsUnderPiGoalAndARejectKeepsTheMode() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}")
                    .get("sessionId").asText();
            assertThat(run(host, session, "c1", "EnterGoalMode", JSON.createObjectNode()).get("ok").asBoolean())
                    .isTrue();
            assertThat(run(host, session, "c2", "SubmitPlan", JSON.createObjectNode().put("plan", "x"))
                    .get("errorCode").asText()).isEqualTo("MODE_DENIED");
            JsonNode submitted = run(host, session, "c3", "SubmitGoal", JSON.createObjectNode().put("goal", PLAN));
            String artifact = submitted.get("details").get("artifactPath").asText();
            assertThat(artifact).startsWith(".pi/goal/");
            assertThat(Files.readAllBytes(project.resolve(artifact))).isEqualTo(PLAN.getBytes(StandardCharsets.UTF_8));
            // one pending approval per session
            assertThat(run(host, session, "c4", "SubmitGoal", JSON.createObjectNode().put("goal", "more"))
                    .get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            String approvalId = submitted.get("details").get("approvalId").asText();
            JsonNode rejected = call(host, "plans.resolve", "{\"approvalId\":\"" + approvalId
                    + "\",\"decision\":\"reject\"}");
            assertThat(rejected.get("status").asText()).isEqualTo("rejected");
            assertThat(mode(host, session)).isEqualTo("goal");
            assertThat(call(host, "plans.pending", "{}").get("approvals")).isEmpty();
        }
    }

    @Test
    void anUnattendedSessionCannotPlan() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = call(host, "session.create", "{\"projectRoot\":\"" + project
                    + "\",\"unattended\":true}").get("sessionId").asText();
            JsonNode entered = run(host, session, "c1", "EnterPlanMode", JSON.createObjectNode());
            assertThat(entered.get("errorCode").asText()).isEqualTo("PLAN_REQUIRES_INTERACTIVE_SESSION");
            assertThat(mode(host, session)).isEqualTo("agent");
        }
    }

    @Test
    void aRestartInterruptsAPendingApprovalAndNeverReplaysIt() throws Exception {
        String session;
        String approvalId;
        try (HostProcess host = HostProcess.serve(data)) {
            session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}").get("sessionId").asText();
            assertThat(run(host, session, "c1", "EnterPlanMode", JSON.createObjectNode()).get("ok").asBoolean())
                    .isTrue();
            JsonNode submitted = run(host, session, "c2", "SubmitPlan", JSON.createObjectNode().put("plan", PLAN));
            approvalId = submitted.get("details").get("approvalId").asText();
            assertThat(call(host, "plans.pending", "{}").get("approvals")).hasSize(1);
        }
        try (HostProcess host = HostProcess.serve(data)) {
            assertThat(call(host, "plans.pending", "{}").get("approvals")).isEmpty();
            assertThat(host.messages()).noneMatch(m -> "plan.approval.request".equals(m.path("method").asText()));
            JsonNode refused = error(host, "plans.resolve", "{\"approvalId\":\"" + approvalId
                    + "\",\"decision\":\"approve\",\"permissionMode\":\"auto\"}");
            assertThat(refused.get("code").asInt()).isEqualTo(-32602);
            assertThat(refused.get("message").asText()).contains("interrupted");
            // the session stays in Plan and may submit again
            assertThat(mode(host, session)).isEqualTo("plan");
            assertThat(run(host, session, "c3", "SubmitPlan", JSON.createObjectNode().put("plan", "again"))
                    .get("ok").asBoolean()).isTrue();
        }
    }
}
