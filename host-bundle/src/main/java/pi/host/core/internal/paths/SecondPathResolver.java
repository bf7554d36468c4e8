package pi.host.core.internal.paths;

import org.osgi.service.component.annotations.Component;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;
import pi.host.spi.SecondPaths;

/**
 * {@link SecondPaths}: the same {@link PathResolver} as the call's own path argument, against the
 * call's roots, resolved when the tool runs (so there is no window between check and use beyond
 * the tool's own). No card covered the second path, so an outside path is refused outright.
 */
@Component(service = SecondPaths.class)
public final class SecondPathResolver implements SecondPaths {

    @Override
    public ResolvedPath resolveWritable(ToolCall call, String raw) {
        try {
            Resolution r = new PathResolver(call.workspaceRoot(), call.scratchDir()).resolve(raw,
                    PathKind.WRITABLE_FILE);
            if (r.outside()) {
                throw new IllegalArgumentException("'" + raw + "' is outside the workspace and scratch roots;"
                        + " a second path cannot be approved, so it must stay inside them");
            }
            return r.path();
        } catch (PathException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }
}
