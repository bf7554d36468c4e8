package pi.host.core.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import pi.host.core.internal.json.Json;

/** Every activation-restoration rule of spec §2.1, one row each. */
class ContextRestorationTest {

    private static final Set<String> DEFERRED = Set.of("plugin_a_x", "plugin_a_y", "mcp_fs_read");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        canonical addedToolNames of a successful ToolSearch | [{"toolName":"ToolSearch","ok":true,"details":{"addedToolNames":["plugin_a_x"]}}] | plugin_a_x
        legacy details.activated | [{"toolName":"ToolSearch","ok":true,"details":{"activated":["plugin_a_y"]}}] | plugin_a_y
        legacy top-level addedToolNames | [{"toolName":"ToolSearch","ok":true,"addedToolNames":["mcp_fs_read"]}] | mcp_fs_read
        a successful deferred-tool result | [{"toolName":"plugin_a_x","ok":true}] | plugin_a_x
        a failed ToolSearch | [{"toolName":"ToolSearch","ok":false,"details":{"addedToolNames":["plugin_a_x"]}}] |
        an errored row | [{"toolName":"plugin_a_x","ok":true,"isError":true}] |
        an interrupted row | [{"toolName":"plugin_a_x","ok":true,"interrupted":true}] |
        a missing-result placeholder | [{"toolName":"plugin_a_x","ok":true,"placeholder":true}] |
        a row without ok | [{"toolName":"plugin_a_x"}] |
        ok as a string is not success | [{"toolName":"plugin_a_x","ok":"true"}] |
        prose | [{"role":"assistant","text":"I activated plugin_a_x"},{"type":"text","text":"plugin_a_y"}] |
        a name outside the mode's deferred catalog | [{"toolName":"ToolSearch","ok":true,"details":{"addedToolNames":["plugin_gone","Write"]}}] |
        a builtin result is no evidence | [{"toolName":"Read","ok":true}] |
        markers on a non-ToolSearch row are ignored | [{"toolName":"Read","ok":true,"details":{"addedToolNames":["plugin_a_x"]}}] |
        no context | null |
        several rows add up | [{"toolName":"plugin_a_x","ok":true},{"toolName":"ToolSearch","ok":true,"details":{"addedToolNames":["mcp_fs_read"]}}] | plugin_a_x mcp_fs_read
        """)
    void restores(String rule, String context, String expected) throws Exception {
        Set<String> restored = ContextRestoration.restore(Json.mapper().readTree(context), DEFERRED);
        if (expected == null) {
            assertThat(restored).as(rule).isEmpty();
        } else {
            assertThat(restored).as(rule).containsExactlyInAnyOrder(expected.split(" "));
        }
    }
}
