package pi.host.spi;

import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * The user's login-shell PATH (spec §5), probed once per process and shared by everything that starts a
 * user's program (Bash, rg, stdio MCP servers). Implemented by the builtin tools bundle.
 */
@ConsumerType
public interface LoginShellPath {

    /** The probed PATH, or empty when the probe failed; the first call may wait for the probe (bounded). */
    Optional<String> path();
}
