package pi.host.mcpserver.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InboundTapTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> cancelled = new ArrayList<>();
    private final InboundTap tap = new InboundTap((session, key) -> cancelled.add(session + "/" + key));

    @Test
    void aToolsCallCarriesItsOwnIdToItsHandler() throws Exception {
        String out = tap.inbound(null, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"Read\","
                + "\"arguments\":{},\"_meta\":{\"progressToken\":3}}}");
        var meta = JSON.readTree(out).path("params").path("_meta");
        assertThat(meta.path(InboundTap.REQUEST_ID).asText()).isEqualTo("n:7");
        assertThat(meta.path("progressToken").asInt()).isEqualTo(3);
        String s = tap.inbound(null, "{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"tools/call\",\"params\":{\"name\":\"Read\"}}");
        assertThat(JSON.readTree(s).path("params").path("_meta").path(InboundTap.REQUEST_ID).asText()).isEqualTo("s:7");
    }

    /** Pins: a client cannot point its call at another request's id: whatever it put under the key is replaced. */
    @Test
    void aClientsOwnRequestIdIsReplaced() throws Exception {
        String out = tap.inbound("S", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"Bash\","
                + "\"_meta\":{\"" + InboundTap.REQUEST_ID + "\":\"n:99\"}}}");
        assertThat(JSON.readTree(out).path("params").path("_meta").path(InboundTap.REQUEST_ID).asText()).isEqualTo("n:1");
    }

    @Test
    void aCancellationNamesItsSessionAndRequest() {
        String line = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":4}}";
        assertThat(tap.inbound("S1", line)).isSameAs(line);
        tap.inbound(null, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"x\"}}");
        tap.inbound(null, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":{}}}");
        assertThat(cancelled).containsExactly("S1/n:4", "null/s:x");
    }

    @Test
    void everythingElsePassesUnchanged() {
        for (String line : new String[] {"garbage", "[1,2]", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/call\",\"params\":{}}", "null"}) {
            assertThat(tap.inbound(null, line)).isSameAs(line);
        }
        assertThat(cancelled).isEmpty();
    }
}
