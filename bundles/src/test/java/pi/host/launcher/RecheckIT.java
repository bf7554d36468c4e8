package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.launcher.HostProcess.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 13.4 end to end: what can change while a call waits (for its card, or for admission behind
 * the session's running command) is judged again right before execution, and the call is refused with
 * the code the first check would give now: the mode switched to Plan (by the user or by EnterPlanMode),
 * the session deleted, the delegate's definition narrowed, a path's link swapped. Nothing is written.
 */
class RecheckIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    /** Starts a Write under ask and returns {id, card}. */
    private static Object[] waitingWrite(HostProcess host, String s, String callId, String path) throws Exception {
        int id = host.startTool(s, callId, "Write", json("path", path, "content", "written after the card"));
        return new Object[] {id, host.card(callId)};
    }

    @Test
    void aWriteApprovedAfterTheUserSwitchedToPlanIsModeDenied() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            Object[] w = waitingWrite(host, s, "w1", "new.txt");
            host.call("session.configure", json("sessionId", s, "mode", "plan"));
            host.resolve((JsonNode) w[1], "allow-once");
            JsonNode r = host.result((int) w[0]);
            assertThat(r.get("errorCode").asText()).as(r.toString()).isEqualTo("MODE_DENIED");
            assertThat(project.resolve("new.txt")).doesNotExist();
            JsonNode audited = host.auditRow(s, "w1");
            assertThat(audited.get("decision").asText()).isEqualTo("mode-deny");
            assertThat(audited.get("source").asText()).isEqualTo("recheck:mode:plan");
            assertThat(audited.get("prompted").asBoolean()).isTrue();
        }
    }

    @Test
    void aWriteApprovedAfterEnterPlanModeIsModeDenied() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            Object[] w = waitingWrite(host, s, "w1", "new.txt");
            JsonNode entered = host.tool(s, "p1", "EnterPlanMode", "{}");
            assertThat(entered.get("ok").asBoolean()).as(entered.toString()).isTrue();
            host.resolve((JsonNode) w[1], "allow-session");
            assertThat(host.result((int) w[0]).get("errorCode").asText()).isEqualTo("MODE_DENIED");
            assertThat(project.resolve("new.txt")).doesNotExist();
        }
    }

    @Test
    void aCallWhoseSessionWasDeletedWhileItsCardWaitedIsSessionNotFound() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            Object[] w = waitingWrite(host, s, "w1", "new.txt");
            host.call("session.delete", json("sessionId", s));
            JsonNode r = host.result((int) w[0]);
            assertThat(r.get("errorCode").asText()).as(r.toString()).isEqualTo("SESSION_NOT_FOUND");
            assertThat(project.resolve("new.txt")).doesNotExist();
        }
    }

    @Test
    void aCallQueuedBehindTheSessionsCommandIsJudgedAgainWhenItsTurnComes() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            // the session's mutation permit is held by a command that runs until the test says go
            int bash = host.startTool(s, "b1", "Bash", json("command",
                    "echo ready; while [ ! -e go ]; do sleep 0.02; done"));
            host.resolve(host.card("b1"), "allow-once");
            host.awaitMessage(m -> "tool.output".equals(m.path("method").asText())
                    && "b1".equals(m.path("params").path("toolCallId").asText())
                    && m.path("params").path("chunk").asText().contains("ready"));
            Object[] w = waitingWrite(host, s, "w1", "queued.txt");
            host.resolve((JsonNode) w[1], "allow-once"); // approved in Agent; it now waits for the permit
            host.call("session.configure", json("sessionId", s, "mode", "plan"));
            Files.writeString(project.resolve("go"), "");
            assertThat(host.result(bash).get("ok").asBoolean()).isTrue();
            assertThat(host.result((int) w[0]).get("errorCode").asText()).isEqualTo("MODE_DENIED");
            assertThat(project.resolve("queued.txt")).doesNotExist();
        }
    }

    @Test
    void aDelegatesCallApprovedAfterItsDefinitionLostTheToolIsDenied() throws Exception {
        Path agents = Files.createDirectories(project.resolve(".pi/agents"));
        Files.writeString(agents.resolve("writer.md"), "---\nname: writer\ndescription: writes\n"
                + "tools: [Read, Write]\n---\nWrite what you are told.\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            int id = host.nextRequestId();
            host.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                    + s + "\",\"turnId\":\"t1\",\"toolCallId\":\"d1\",\"name\":\"Write\",\"arguments\":"
                    + json("path", "new.txt", "content", "x") + ",\"delegate\":{\"name\":\"writer\","
                    + "\"source\":\"project\",\"delegationId\":\"dl_1\"}}}");
            JsonNode card = host.card("d1");
            assertThat(card.get("delegate").asText()).isEqualTo("writer");
            Files.writeString(agents.resolve("writer.md"), "---\nname: writer\ndescription: writes\n"
                    + "tools: [Read]\n---\nRead only now.\n");
            host.resolve(card, "allow-once");
            JsonNode r = host.result(id);
            assertThat(r.get("errorCode").asText()).as(r.toString()).isEqualTo("TOOL_DENIED");
            assertThat(r.get("content").get(0).get("text").asText()).contains("not among the tools of delegate");
            assertThat(project.resolve("new.txt")).doesNotExist();
            assertThat(host.auditRow(s, "d1").get("rule").asText()).isEqualTo("delegate.scope");
        }
    }

    @Test
    void aPathWhoseLinkWasSwappedWhileTheCardWaitedIsDenied(@TempDir Path elsewhere) throws Exception {
        Path dir = Files.createDirectories(project.resolve("dir"));
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            Object[] w = waitingWrite(host, s, "w1", "dir/f.txt");
            // swapped for a link to somewhere outside: approving the in-root card must not write there
            Files.delete(dir);
            Files.createSymbolicLink(dir, elsewhere);
            host.resolve((JsonNode) w[1], "allow-once");
            JsonNode r = host.result((int) w[0]);
            assertThat(r.get("errorCode").asText()).as(r.toString()).isEqualTo("TOOL_DENIED");
            assertThat(r.get("content").get(0).get("text").asText()).contains("changed after it was checked");
            assertThat(elsewhere.resolve("f.txt")).doesNotExist();
        }
    }
}
