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
 * The session-dependent part of the catalog through the real {@code pi-host serve --stdio} process: Skill
 * in the first request whenever the session has a skill, in every mode; JevClassify on demand in Agent only,
 * only while Jev is enabled and a key is saved (spec §2.1).
 */
class OfferedToolsIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get("name").asText()));
        return out;
    }

    private static JsonNode find(JsonNode array, String name) {
        for (JsonNode n : array) {
            if (name.equals(n.get("name").asText())) {
                return n;
            }
        }
        return null;
    }

    private static void skill(Path skills, String id, String description) throws Exception {
        Files.createDirectories(skills.resolve(id));
        Files.writeString(skills.resolve(id).resolve("SKILL.md"), "---\nname: " + id + "\ndescription: " + description
                + "\n---\nThe steps of " + id + ".\n");
    }

    /** The "Must show": Agent, Jev enabled, a key saved, one skill. */
    @Test
    void agentWithJevEnabledAKeySavedAndOneSkillListsJevClassifyOnDemandAndSkillInTheFirstRequest() throws Exception {
        skill(project.resolve(".pi/skills"), "release-notes", "Turn a list of changes into release notes.");
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("settings.update", "{\"jev.enabled\":true,\"jev.apiKey\":\"ts-live-0123456789abcdef\"}");
            String session = host.session(project, "ask");
            JsonNode listing = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}");

            assertThat(names(listing.get("tools"))).contains("Read", "Bash", "Edit", "Write", "Glob", "Grep", "Skill")
                    .doesNotContain("JevClassify");
            JsonNode skill = find(listing.get("tools"), "Skill");
            assertThat(skill.get("risk").asText()).isEqualTo("low");
            assertThat(skill.get("description").asText())
                    .endsWith("Skills:\n- release-notes: Turn a list of changes into release notes.");
            assertThat(skill.get("inputSchema").get("required").toString()).isEqualTo("[\"skill\"]");
            JsonNode jev = find(listing.get("onDemand"), "JevClassify");
            assertThat(jev).as(listing.toString()).isNotNull();
            assertThat(jev.get("summary").asText()).contains("TypeSafe Jev");
        }
    }

    @Test
    void withoutAnyOfTheConditionsNeitherIsOfferedAndACallIsAnUnknownTool() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.session(project, "auto");
            JsonNode listing = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}");
            assertThat(names(listing.get("tools"))).doesNotContain("Skill");
            assertThat(names(listing.get("onDemand"))).doesNotContain("JevClassify");
            JsonNode skill = host.tool(session, "c1", "Skill", "{\"skill\":\"any\"}");
            assertThat(skill.get("errorCode").asText()).isEqualTo("UNKNOWN_TOOL");
            assertThat(skill.get("content").get(0).get("text").asText()).contains("the session has no skills");
            // enabled without a key, then a key without being enabled: still not offered
            host.call("settings.update", "{\"jev.enabled\":true}");
            assertThat(names(host.call("tools.list", "{\"sessionId\":\"" + session + "\"}").get("onDemand")))
                    .doesNotContain("JevClassify");
            JsonNode search = host.tool(session, "c2", "ToolSearch", "{\"query\":\"JevClassify\"}");
            assertThat(search.get("details").get("addedToolNames").toString()).isEqualTo("[]");
            JsonNode jev = host.tool(session, "c3", "JevClassify", "{\"state\":{},\"questions\":[{\"id\":\"a\","
                    + "\"text\":\"?\",\"type\":\"boolean\"}]}");
            assertThat(jev.get("errorCode").asText()).isEqualTo("UNKNOWN_TOOL");
            assertThat(jev.get("content").get(0).get("text").asText()).contains("no TypeSafe API key is saved");
            host.call("settings.update", "{\"jev.enabled\":false,\"jev.apiKey\":\"ts-live-0123456789abcdef\"}");
            assertThat(names(host.call("tools.list", "{\"sessionId\":\"" + session + "\"}").get("onDemand")))
                    .doesNotContain("JevClassify");
            assertThat(host.auditRow(session, "c3").get("errorCode").asText()).isEqualTo("UNKNOWN_TOOL");
        }
    }

    /** Skill is in the first request in every mode; JevClassify never reaches Plan or Goal, even by a direct call. */
    @Test
    void planAndGoalGetSkillButNeverJevClassify() throws Exception {
        skill(data.resolve("skills"), "triage", "Sort incoming bugs.");
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("settings.update", "{\"jev.enabled\":true,\"jev.apiKey\":\"ts-live-0123456789abcdef\"}");
            for (String mode : new String[] {"plan", "goal"}) {
                String session = host.call("session.create", "{\"projectRoot\":\"" + project + "\",\"mode\":\"" + mode
                        + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
                JsonNode listing = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}");
                assertThat(names(listing.get("tools"))).as(mode).contains("Skill").doesNotContain("JevClassify");
                assertThat(names(listing.get("onDemand"))).as(mode).doesNotContain("JevClassify");
                JsonNode run = host.tool(session, "s-" + mode, "Skill", "{\"skill\":\"triage\"}");
                assertThat(run.get("ok").asBoolean()).as(run.toString()).isTrue();
                assertThat(run.get("content").get(0).get("text").asText()).contains("The steps of triage.");
                JsonNode jev = host.tool(session, "j-" + mode, "JevClassify", "{\"state\":{},\"questions\":[{\"id\":"
                        + "\"a\",\"text\":\"?\",\"type\":\"boolean\"}]}");
                assertThat(jev.get("errorCode").asText()).as(mode).isEqualTo("MODE_DENIED");
                assertThat(host.auditRow(session, "j-" + mode).get("decision").asText()).isEqualTo("mode-deny");
            }
        }
    }
}
