package pi.host.spi;

import org.osgi.annotation.versioning.ProviderType;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;

/**
 * Resolves a second path named inside a call's arguments (Edit's {@code MV DEST}) with the same
 * lexical and symlink rules as the call's path argument, against the same session roots. No
 * permission card covered it, so a path outside the workspace and scratch roots is refused.
 */
@ProviderType
public interface SecondPaths {

    /**
     * @param raw relative to the workspace root unless absolute
     * @return the location, under the workspace or scratch root; its parent folders may not exist
     * @throws IllegalArgumentException with a message for the model when the path is malformed,
     *     outside both roots, or an existing directory
     */
    ResolvedPath resolveWritable(ToolCall call, String raw);
}
