package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.launcher.dropin.GreetingTool;

/**
 * Issue 12.2 with the real process: a bundle's name proves nothing. Only what the launcher installed
 * from the distribution is reported as {@code distribution}; a drop-in is third-party whatever it calls
 * itself, and one that takes the name of a host bundle is not even installed (issue 12.4: the drop-in
 * folder refuses it before install), so none of its tools appears. (In-container,
 * {@code pi.host.it.BundleOriginIT} pins the registry's side: services of such bundles.)
 */
class BundleOriginIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    /** Pins: the launcher's bundles and a drop-in were told apart by nothing but their symbolic names. */
    @Test
    void hostInfoTellsTheDistributionFromEverythingElse() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("host.info", "{}");
            // a name in the host's own namespace that no host bundle has: installed, and third-party
            DropInJar.plugin("pi.host.greeting", "greeting", GreetingTool.class).text("greeting.txt", "hi")
                    .dropInto(data.resolve("plugins"), "greeting.jar");
            long dropIn = DropInJar.awaitFile(host, "greeting.jar", "awaiting-grant").get("bundleId").asLong();
            assertThat(dropIn).isPositive();
            int distribution = 0;
            for (JsonNode b : host.startedInfo().get("bundles")) {
                String expected = b.get("id").asLong() == dropIn ? "third-party" : "distribution";
                assertThat(b.get("origin").asText()).as(b.toString()).isEqualTo(expected);
                distribution += "distribution".equals(expected) ? 1 : 0;
            }
            assertThat(distribution).as("the launcher's bundles").isGreaterThan(10);
        }
    }

    /** Pins: a jar naming itself after a host bundle got host trust (builtin or MCP names, no grant). */
    @Test
    void aDropInNamedLikeAHostBundleIsNeverInstalledAndGetsNoTool() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            DropInJar.plugin("pi.host.jev", "jev", GreetingTool.class).text("greeting.txt", "jev")
                    .dropInto(data.resolve("plugins"), "jev.jar");
            JsonNode record = DropInJar.awaitFile(host, "jev.jar", "invalid");
            assertThat(record.get("bundleId").asLong()).isEqualTo(-1);
            assertThat(record.get("problems").toString()).contains("the symbolic name pi.host.jev is bundle ");
            assertThat(host.tool(session, "c0", "hello", "{}").get("errorCode").asText()).isEqualTo("UNKNOWN_TOOL");
            assertThat(host.tool(session, "c1", "plugin_jev_hello", "{}").get("errorCode").asText())
                    .isEqualTo("UNKNOWN_TOOL");
            for (JsonNode m : host.messages()) {
                if ("tools.changed".equals(m.path("method").asText())) {
                    assertThat(m.path("params").path("added").toString()).doesNotContain("hello")
                            .doesNotContain("mcp_");
                }
            }
        }
    }
}
