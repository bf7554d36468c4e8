package pi.host.core.internal.paths;

import java.util.Objects;
import pi.host.api.ResolvedPath;

/**
 * A path argument as checked before policy. The raw text is kept so the resolver can resolve it
 * again from scratch right before execution ({@link PathResolver#recheck}).
 *
 * @param raw the argument exactly as the model sent it
 * @param path the confined location and its root
 * @param outside true when the path is outside both roots (root EXTERNAL): it needs the outside-path
 *     permission of spec §4a
 * @param exists whether something exists there now
 */
public record Resolution(String raw, ResolvedPath path, boolean outside, boolean exists) {

    public Resolution {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(path, "path");
        if (outside != (path.root() == ResolvedPath.Root.EXTERNAL)) {
            throw new IllegalArgumentException("outside must say whether the root is external");
        }
    }
}
