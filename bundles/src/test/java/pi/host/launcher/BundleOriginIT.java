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
 * bundle is third-party: with the name of an installed host bundle it is refused, with a reserved name
 * nothing implements yet it is an ordinary plugin, named {@code plugin_<id>_<tool>} after its grant.
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
            DropInJar.awaitFile(host, "jev.jar", "awaiting-grant");
            for (JsonNode b : host.startedInfo().get("bundles")) {
                String expected = "pi.host.jev".equals(b.get("symbolicName").asText()) ? "third-party" : "distribution";
                assertThat(b.get("origin").asText()).as(b.toString()).isEqualTo(expected);
            }
        }
    }

    /** Pins: a jar naming itself after a reserved host bundle got host trust (builtin or MCP names, no grant). */
    @Test
    void aDropInNamedLikeAReservedHostBundleIsAnOrdinaryPlugin() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            DropInJar.plugin("pi.host.jev", "jev", GreetingTool.class).text("greeting.txt", "jev")
                    .dropInto(data.resolve("plugins"), "jev.jar");
            JsonNode record = DropInJar.awaitFile(host, "jev.jar", "awaiting-grant");
            assertThat(record.get("tools").get(0).get("exposedName").asText()).isEqualTo("plugin_jev_hello");
            assertThat(host.tool(session, "c0", "hello", "{}").get("errorCode").asText()).isEqualTo("UNKNOWN_TOOL");
            host.call("plugins.grant", "{\"pluginId\":\"jev\",\"capability\":\"agent.tool.register\"}");
            host.tool(session, "s1", "ToolSearch", "{\"query\":\"plugin_jev_hello\"}");
            assertThat(host.tool(session, "c1", "plugin_jev_hello", "{}").get("content").get(0).get("text").asText())
                    .isEqualTo("hello jev");
            for (JsonNode m : host.messages()) {
                if ("tools.changed".equals(m.path("method").asText())) {
                    assertThat(m.path("params").path("added").toString()).doesNotContain("\"hello\"")
                            .doesNotContain("mcp_");
                }
            }
        }
    }
}
