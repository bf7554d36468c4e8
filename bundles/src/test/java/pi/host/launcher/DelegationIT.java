package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delegation end to end through the real {@code pi-host serve --stdio} process (spec §10.2): a project
 * definition whose permission scope is dropped → subagents.list shows it with the warning → Task runs
 * in Agent and is refused in Plan → the delegate's Read runs, its Write is refused before any card
 * and audited with the delegate's name.
 */
class DelegationIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    private static List<String> names(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(field).asText()));
        return out;
    }

    private static String delegateCall(String session, String callId, String tool, String args, String delegationId) {
        return "{\"sessionId\":\"" + session + "\",\"turnId\":\"t2\",\"toolCallId\":\"" + callId + "\",\"name\":\""
                + tool + "\",\"arguments\":" + args + ",\"delegate\":{\"name\":\"reviewer\",\"source\":\"project\","
                + "\"permission\":\"auto\",\"tools\":[\"Read\",\"Grep\",\"Write\"],\"delegationId\":\"" + delegationId
                + "\"}}";
    }

    @Test
    void aProjectReviewerFromDefinitionToAuditedRefusal() throws Exception {
        Files.createDirectories(project.resolve(".pi/agents"));
        Files.writeString(project.resolve(".pi/agents/reviewer.md"), "---\nname: reviewer\n"
                + "description: Reviews a change for mistakes\ntools: [Read, Grep]\npermission: auto\n---\n"
                + "Read the files you are given and report problems.\n");
        Files.writeString(project.resolve("code.txt"), "one\ntwo\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project + "\"}")
                    .get("sessionId").asText();

            JsonNode listed = host.call("subagents.list", "{\"sessionId\":\"" + session + "\"}");
            assertThat(listed.get("taskOffered").asBoolean()).isTrue();
            JsonNode reviewer = null;
            for (JsonNode s : listed.get("subagents")) {
                if ("reviewer".equals(s.get("name").asText())) {
                    reviewer = s;
                }
            }
            assertThat(reviewer).as(listed.toString()).isNotNull();
            assertThat(reviewer.get("source").asText()).isEqualTo("project");
            assertThat(reviewer.get("file").asText()).isEqualTo(".pi/agents/reviewer.md");
            assertThat(reviewer.get("tools").toString()).isEqualTo("[\"Grep\",\"Read\"]");
            assertThat(reviewer.get("permission").asText()).isEqualTo("inherit");
            assertThat(reviewer.get("instructions").asText()).isEqualTo("Read the files you are given and report problems.");
            assertThat(reviewer.get("warnings")).singleElement().satisfies(w -> assertThat(w.asText())
                    .contains("a project definition may not declare a permission scope; 'auto' dropped"));
            assertThat(names(listed.get("subagents"), "name")).contains("explorer", "general", "reviewer");

            // Agent: Task is listed, naming the subagents, and starts the reviewer
            JsonNode tools = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}").get("tools");
            JsonNode task = null;
            for (JsonNode t : tools) {
                if ("Task".equals(t.get("name").asText())) {
                    task = t;
                }
            }
            assertThat(task).as("Task is offered in Agent").isNotNull();
            assertThat(task.get("description").asText()).contains("- reviewer: Reviews a change for mistakes");
            JsonNode started = host.tool(session, "c1", "Task",
                    "{\"subagent\":\"reviewer\",\"prompt\":\"Review code.txt\",\"description\":\"review\"}");
            assertThat(started.get("ok").asBoolean()).as(started.toString()).isTrue();
            String delegationId = started.get("details").get("delegationId").asText();
            assertThat(delegationId).startsWith("dl_").isEqualTo("dl_" + started.get("traceId").asText().substring(3));
            JsonNode subagent = started.get("details").get("subagent");
            assertThat(subagent.get("name").asText()).isEqualTo("reviewer");
            assertThat(subagent.get("source").asText()).isEqualTo("project");
            assertThat(subagent.get("tools").toString()).isEqualTo("[\"Grep\",\"Read\"]");
            assertThat(subagent.get("permission").asText()).isEqualTo("inherit");
            assertThat(started.get("details").get("prompt").asText()).isEqualTo("Review code.txt");
            assertThat(host.tool(session, "c2", "Task", "{\"subagent\":\"nobody\",\"prompt\":\"x\"}")
                    .get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");

            // the delegate reads, and its Write is refused before any card, whatever the client claims
            JsonNode read = host.call("tools.execute", delegateCall(session, "d1", "Read",
                    "{\"path\":\"code.txt\"}", delegationId));
            assertThat(read.get("ok").asBoolean()).as(read.toString()).isTrue();
            JsonNode write = host.call("tools.execute", delegateCall(session, "d2", "Write",
                    "{\"path\":\"code.txt\",\"content\":\"gone\"}", delegationId));
            assertThat(write.get("ok").asBoolean()).isFalse();
            assertThat(write.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(write.get("content").get(0).get("text").asText())
                    .contains("Write is not among the tools of delegate 'reviewer' (Grep, Read)");
            assertThat(project.resolve("code.txt")).hasContent("one\ntwo\n");
            assertThat(host.messages()).noneMatch(m -> "permission.request".equals(m.path("method").asText()));

            JsonNode rows = host.call("audit.query", "{\"sessionId\":\"" + session + "\"}").get("rows");
            JsonNode denied = null;
            JsonNode allowed = null;
            for (JsonNode row : rows) {
                if ("d2".equals(row.get("toolCallId").asText())) {
                    denied = row;
                } else if ("d1".equals(row.get("toolCallId").asText())) {
                    allowed = row;
                }
            }
            assertThat(denied).isNotNull();
            assertThat(denied.get("delegate").asText()).isEqualTo("reviewer");
            assertThat(denied.get("toolName").asText()).isEqualTo("Write");
            assertThat(denied.get("decision").asText()).isEqualTo("deny");
            assertThat(denied.get("rule").asText()).isEqualTo("delegate.scope");
            assertThat(denied.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(allowed.get("delegate").asText()).isEqualTo("reviewer");
            assertThat(allowed.get("decision").asText()).isEqualTo("allow");

            // Plan: Task is neither offered nor run
            host.call("session.configure", "{\"sessionId\":\"" + session + "\",\"mode\":\"plan\"}");
            assertThat(names(host.call("tools.list", "{\"sessionId\":\"" + session + "\"}").get("tools"), "name"))
                    .doesNotContain("Task").contains("Read");
            assertThat(host.call("subagents.list", "{\"sessionId\":\"" + session + "\"}").get("taskOffered")
                    .asBoolean()).isFalse();
            JsonNode inPlan = host.tool(session, "c3", "Task", "{\"subagent\":\"reviewer\",\"prompt\":\"x\"}");
            assertThat(inPlan.get("errorCode").asText()).isEqualTo("MODE_DENIED");
        }
    }
}
