package pi.host.mcp.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins deaf connections: a server line that is not JSON-RPC must be reported, not silently end the reading. */
class CheckedMapperTest {

    private static final TypeRef<HashMap<String, Object>> MAP = new TypeRef<>() { };

    @Test
    void linesThatAreNotJsonRpcAreReported() throws Exception {
        List<String> reported = new ArrayList<>();
        CheckedMapper mapper = new CheckedMapper(new JacksonMcpJsonMapper(new ObjectMapper()), reported::add);
        mapper.readValue("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", MAP);
        mapper.readValue("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}", MAP);
        assertThat(reported).isEmpty();

        assertThatThrownBy(() -> mapper.readValue("Server listening on :3000", MAP));
        mapper.readValue("{\"hello\":\"world\"}", MAP);
        assertThat(reported).containsExactly(
                "the server wrote a line on stdout that is not JSON: Server listening on :3000",
                "the server wrote a line on stdout that is not a JSON-RPC message: {\"hello\":\"world\"}");
    }
}
