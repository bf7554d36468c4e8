package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.launcher.dropin.GreetingTool;

/**
 * Issue 12.2 with the real process: a bundle's name proves nothing. Only what the launcher installed
 * from the distribution is reported as {@code distribution}; a drop-in that calls itself like a host
 * bundle is third-party, and since every name the registry gives a role to is now installed (the Jev
 * bundle was the last, issue 18), such a drop-in never resolves and none of its tools appears.
 * (In-container, {@code pi.host.it.BundleOriginIT} pins the registry's side: services of such bundles.)
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
            DropInJar.plugin("pi.host.jev", "jev", GreetingTool.class).text("greeting.txt", "jev")
                    .dropInto(data.resolve("plugins"), "jev.jar");
            long dropIn = DropInJar.awaitFile(host, "jev.jar", "invalid").get("bundleId").asLong();
            int named = 0;
            for (JsonNode b : host.startedInfo().get("bundles")) {
                String expected = b.get("id").asLong() == dropIn ? "third-party" : "distribution";
                assertThat(b.get("origin").asText()).as(b.toString()).isEqualTo(expected);
                named += "pi.host.jev".equals(b.get("symbolicName").asText()) ? 1 : 0;
            }
            assertThat(named).as("the distribution's Jev bundle and the drop-in share the name").isEqualTo(2);
        }
    }

    /** Pins: a jar naming itself after a host bundle got host trust (builtin or MCP names, no grant). */
    @Test
    void aDropInNamedLikeAHostBundleNeverResolvesAndGetsNoTool() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            DropInJar.plugin("pi.host.jev", "jev", GreetingTool.class).text("greeting.txt", "jev")
                    .dropInto(data.resolve("plugins"), "jev.jar");
            JsonNode record = DropInJar.awaitFile(host, "jev.jar", "invalid");
            assertThat(record.get("problems").toString()).contains("the bundle is not resolved");
            assertThat(host.call("plugins.list", "{}").get("refusedBundles").toString())
                    .contains("takes the symbolic name pi.host.jev of a host bundle");
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
