package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Glob and Grep through the real {@code pi-host serve --stdio} process: the pattern alias, the
 * workspace root as the default directory, .gitignore, and a Grep tag that Edit accepts.
 */
class SearchToolsIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    @Test
    void globAndGrepThenEditWithTheGrepTag() throws Exception {
        Files.createDirectories(project.resolve("src/sub"));
        Files.createDirectories(project.resolve("build"));
        Files.writeString(project.resolve(".gitignore"), "build/\n");
        Files.writeString(project.resolve("src/A.java"), "class A {\n  int alpha;\n}\n");
        Files.writeString(project.resolve("src/sub/B.java"), "class B {\n  int beta;\n}\n");
        Files.writeString(project.resolve("build/G.java"), "class G { int alpha; }\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();

            JsonNode glob = host.tool(session, "g1", "Glob", "{\"query\":\"**/*.java\"}");
            assertThat(glob.get("ok").asBoolean()).as(glob.toString()).isTrue();
            assertThat(glob.get("content").get(0).get("text").asText()).isEqualTo("src/A.java\nsrc/sub/B.java\n");

            JsonNode grep = host.tool(session, "g2", "Grep", "{\"pattern\":\"alpha\",\"include\":\"*.java\"}");
            assertThat(grep.get("ok").asBoolean()).as(grep.toString()).isTrue();
            String text = grep.get("content").get(0).get("text").asText();
            assertThat(text).startsWith("[src/A.java#").endsWith("]\n2:  int alpha;\n").doesNotContain("build");
            String tag = text.substring(text.indexOf('#') + 1, text.indexOf(']'));

            // the line Grep showed is a displayed line: Edit may replace it with the Grep tag
            JsonNode edit = host.tool(session, "g3", "Edit", "{\"path\":\"src/A.java\",\"tag\":\"" + tag
                    + "\",\"ops\":\"PUT 2.=2:\\n+  int omega;\\n\"}");
            assertThat(edit.get("ok").asBoolean()).as(edit.toString()).isTrue();
            assertThat(Files.readString(project.resolve("src/A.java"))).isEqualTo("class A {\n  int omega;\n}\n");

            JsonNode one = host.tool(session, "g4", "Grep", "{\"query\":\"beta\",\"path\":\"src/sub/B.java\","
                    + "\"outputMode\":\"count\"}");
            assertThat(one.get("content").get(0).get("text").asText()).isEqualTo("src/sub/B.java:1\n");
        }
    }
}
