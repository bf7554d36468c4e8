package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host loads JNA once: the bundles wire to the copy on the launcher's class path (which made the
 * process undumpable before the framework existed) through the system bundle, instead of loading the
 * classes, the native library and the Cleaner thread of the JNA bundle a second time (ClassPathLibraries).
 */
class OneJnaIT {

    @TempDir
    Path data;

    @TempDir
    Path project;

    @Test
    void theBundlesUseTheLaunchersJnaAndTheRaceFreeFileEdgeStillWorks() throws Exception {
        Path file = Files.writeString(project.resolve("hello.txt"), "one\ntwo\n");
        try (HostProcess host = HostProcess.serve(data)) {
            host.startedInfo();
            String session = host.session(project, "auto");
            // the edit goes through the core's race-free file edge (JNA's direct mapping of libc): it works
            // only when the core is wired to a JNA, and it makes the core's JNA load and clean up memory
            JsonNode read = host.tool(session, "c1", "Read", "{\"path\":\"hello.txt\"}");
            String text = read.get("content").get(0).get("text").asText();
            String tag = text.substring(text.indexOf('#') + 1, text.indexOf(']'));
            JsonNode edit = host.tool(session, "c2", "Edit", "{\"file_path\":\"hello.txt\",\"tag\":\"" + tag
                    + "\",\"ops\":\"PUT 2.=2:\\n+TWO\\n\"}");
            assertThat(edit.get("ok").asBoolean()).as(edit.toString()).isTrue();
            assertThat(Files.readString(file)).isEqualTo("one\nTWO\n");
            // each loaded copy of JNA runs its own Cleaner thread; the launcher's copy started one for prctl
            assertThat(threadsNamed(host.process().pid(), "JNA Cleaner")).isEqualTo(1);
        }
    }

    /** How many threads of the process carry this name (their comm is readable whatever the dumpable flag). */
    private static long threadsNamed(long pid, String name) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip().equals(name);
                } catch (IOException exited) {
                    return false;
                }
            }).count();
        }
    }
}
