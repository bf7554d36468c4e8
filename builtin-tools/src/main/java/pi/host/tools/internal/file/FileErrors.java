package pi.host.tools.internal.file;

import pi.host.api.ErrorCode;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolResult;
import pi.host.spi.PathChangedException;

/**
 * The answer when a file tool's race-free open refuses the path the host checked (a folder on it
 * swapped for a link, say): {@code TOOL_DENIED}, as the host's own re-check answers a path that
 * changed after approval. Nothing was read or written through it.
 */
final class FileErrors {

    private FileErrors() {
    }

    static ToolResult changed(ResolvedPath path, PathChangedException e) {
        return ToolResult.error(ErrorCode.TOOL_DENIED, "the path changed after it was checked: " + e.getMessage()
                + " (" + path.display() + ")");
    }
}
