package pi.host.spi;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Implemented by the MCP bridge ({@code pi.host.mcp}); the host serves {@code mcp.list} from it.
 * Calls return quickly (no server is asked).
 */
@ConsumerType
public interface McpRuntime {

    /** Every server configured in {@code <data_dir>/mcp.json} (and the file's own problems), in id order. */
    List<McpServerInfo> servers();
}
