package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write delegates of an isolated session through the real {@code pi-host serve --stdio} process (spec
 * §10.2): Task checkpoints the session and branches the delegate's own worktree, the delegate's calls
 * (their {@code delegate.delegationId}) are re-rooted there, {@code delegation.complete} merges back with
 * the merge algorithm, and a stop or a conflict keeps the branch.
 */
class DelegateWorktreesIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    private static String delegateCall(String session, String callId, String tool, String args, String delegationId) {
        return "{\"sessionId\":\"" + session + "\",\"turnId\":\"t2\",\"toolCallId\":\"" + callId + "\",\"name\":\""
                + tool + "\",\"arguments\":" + args + ",\"delegate\":{\"name\":\"general\",\"source\":\"builtin\","
                + "\"tools\":[\"Read\",\"Write\",\"Bash\"],\"delegationId\":\"" + delegationId + "\"}}";
    }

    private static String isolated(HostProcess host, Path projectRoot) throws IOException {
        return host.call("session.create", HostProcess.json("projectRoot", projectRoot.toString(), "permissionMode",
                "auto").replace("}", ",\"isolated\":true}")).get("sessionId").asText();
    }

    private static JsonNode task(HostProcess host, String session, String callId) throws IOException {
        JsonNode started = host.tool(session, callId, "Task",
                "{\"subagent\":\"general\",\"prompt\":\"change things\",\"description\":\"work\"}");
        assertThat(started.get("ok").asBoolean()).as(started.toString()).isTrue();
        return started.get("details");
    }

    /** Pins §10.2: a write delegate works in its own worktree from the checkpointed session and merges back. */
    @Test
    void aWriteDelegateWorksInItsOwnWorktreeAndMergesBack() throws Exception {
        Files.writeString(project.resolve("a.txt"), "base\n");
        GitRepo repo = GitRepo.init(project);
        try (HostProcess host = HostProcess.serve(data)) {
            String session = isolated(host, project);
            Path sessionTree = Path.of(host.call("session.get", HostProcess.json("sessionId", session))
                    .get("workspaceRoot").asText());
            host.tool(session, "c1", "Write", "{\"path\":\"pending.txt\",\"content\":\"the session's pending edit\\n\"}");

            JsonNode started = task(host, session, "c2");
            String delegationId = started.get("delegationId").asText();
            JsonNode worktree = started.get("worktree");
            Path delegateTree = Path.of(worktree.get("path").asText());
            assertThat(worktree.get("branch").asText()).isEqualTo("pi-desktop/" + delegationId);
            assertThat(delegateTree.getParent()).isEqualTo(sessionTree.getParent());
            // the session's pending edit was checkpointed first, so the delegate starts with it
            assertThat(Files.readString(delegateTree.resolve("pending.txt"))).isEqualTo("the session's pending edit\n");
            assertThat(GitRepo.at(sessionTree).git("status", "--porcelain")).isEmpty();

            // the delegate's calls are re-rooted: Write and Bash land in its worktree, not the session's
            JsonNode write = host.call("tools.execute", delegateCall(session, "d1", "Write",
                    "{\"path\":\"delegate.txt\",\"content\":\"from the delegate\\n\"}", delegationId));
            assertThat(write.get("ok").asBoolean()).as(write.toString()).isTrue();
            JsonNode bash = host.call("tools.execute", delegateCall(session, "d2", "Bash",
                    "{\"command\":\"pwd; echo \\\"$PI_WORKTREE_ROOT\\\"\"}", delegationId));
            assertThat(bash.get("details").get("stdout").asText()).isEqualTo(delegateTree + "\n" + delegateTree + "\n");
            assertThat(delegateTree.resolve("delegate.txt")).exists();
            assertThat(sessionTree.resolve("delegate.txt")).doesNotExist();
            // the session's own calls stay in the session's worktree, and the session's worktree is not the
            // delegate's root (every other folder in the data dir is host state to it)
            assertThat(host.tool(session, "c3", "Read", "{\"path\":\"delegate.txt\"}").get("ok").asBoolean()).isFalse();
            JsonNode across = host.call("tools.execute", delegateCall(session, "d3", "Write", HostProcess.json("path",
                    sessionTree.resolve("x.txt").toString(), "content", "x"), delegationId));
            assertThat(across.get("errorCode").asText()).as(across.toString()).isEqualTo("TOOL_DENIED");
            assertThat(sessionTree.resolve("x.txt")).doesNotExist();

            JsonNode done = host.call("delegation.complete", HostProcess.json("sessionId", session, "delegationId",
                    delegationId, "outcome", "completed"));
            assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("merged");
            assertThat(Files.readString(sessionTree.resolve("delegate.txt"))).isEqualTo("from the delegate\n");
            assertThat(delegateTree).doesNotExist();
            assertThat(repo.branches()).doesNotContain("pi-desktop/" + delegationId);
            assertThat(repo.head()).as("the project itself does not move").isEqualTo(
                    host.call("session.get", HostProcess.json("sessionId", session)).get("worktree").get("base").asText());
            assertThat(project.resolve("delegate.txt")).doesNotExist();
        }
    }

    /** Pins "a stop or a conflict keeps the delegate's branch and says so". */
    @Test
    void aStoppedOrConflictingDelegateKeepsItsBranch() throws Exception {
        Files.writeString(project.resolve("a.txt"), "one\ntwo\nthree\n");
        GitRepo repo = GitRepo.init(project);
        try (HostProcess host = HostProcess.serve(data)) {
            String session = isolated(host, project);
            Path sessionTree = Path.of(host.call("session.get", HostProcess.json("sessionId", session))
                    .get("workspaceRoot").asText());
            String delegationId = task(host, session, "c1").get("delegationId").asText();
            host.call("tools.execute", delegateCall(session, "d1", "Bash",
                    "{\"command\":\"printf 'one\\\\ndelegate\\\\nthree\\\\n' > a.txt\"}", delegationId));

            JsonNode stopped = host.call("delegation.complete", HostProcess.json("sessionId", session, "delegationId",
                    delegationId, "outcome", "stopped"));
            assertThat(stopped.get("status").asText()).isEqualTo("kept");
            assertThat(stopped.get("report").asText()).contains("pi-desktop/" + delegationId, "Resume");
            assertThat(repo.branches()).contains("pi-desktop/" + delegationId);

            // meanwhile the session changed the same line: completing stops at the conflict, the branch stays
            host.tool(session, "c2", "Bash", "{\"command\":\"printf 'one\\\\nsession\\\\nthree\\\\n' > a.txt\"}");
            JsonNode conflict = host.call("delegation.complete", HostProcess.json("sessionId", session,
                    "delegationId", delegationId, "outcome", "completed"));
            assertThat(conflict.get("status").asText()).as(conflict.toString()).isEqualTo("conflict");
            assertThat(conflict.get("conflicts").toString()).isEqualTo("[\"a.txt\"]");
            assertThat(conflict.get("report").asText()).contains("kept", "Resume");
            assertThat(repo.branches()).contains("pi-desktop/" + delegationId);
            assertThat(Files.readString(sessionTree.resolve("a.txt"))).isEqualTo("one\nsession\nthree\n");

            // deleting the session removes the delegate's worktree and branch with the session's
            Path delegateTree = sessionTree.getParent().resolve(delegationId);
            host.call("session.delete", HostProcess.json("sessionId", session));
            assertThat(delegateTree).doesNotExist();
            assertThat(repo.branches()).doesNotContain("pi-desktop/" + delegationId, "pi-desktop/" + session);
        }
    }

    /** Pins "read-only delegates share the session's root": an explorer gets no worktree of its own. */
    @Test
    void aReadOnlyDelegateSharesTheSessionsWorktree() throws Exception {
        Files.writeString(project.resolve("a.txt"), "base\n");
        GitRepo repo = GitRepo.init(project);
        try (HostProcess host = HostProcess.serve(data)) {
            String session = isolated(host, project);
            JsonNode started = host.tool(session, "c1", "Task",
                    "{\"subagent\":\"explorer\",\"prompt\":\"look\",\"description\":\"look\"}");
            assertThat(started.get("details").has("worktree")).isFalse();
            assertThat(repo.branches()).containsExactlyInAnyOrder("main", "pi-desktop/" + session);
            JsonNode done = host.call("delegation.complete", HostProcess.json("sessionId", session, "delegationId",
                    started.get("details").get("delegationId").asText()));
            assertThat(done.get("status").asText()).isEqualTo("shared");
        }
    }
}
