package pi.host.spi;

import java.nio.file.Path;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;
import pi.host.api.ToolCall;

/**
 * What a directory walk of one call (Glob, Grep) must stay out of: the host's own state below the
 * searched directory (its data dir, issue 13.2), which no tool may list or read even when it lies
 * inside the workspace. The host's {@link ToolCall}s implement it.
 */
@ProviderType
public interface WalkLimits {

    /** Absolute, canonical directories the walk must neither enter nor list; empty when none is below its root. */
    List<Path> excludedDirectories();

    /** The exclusions of {@code call}; none for a call the host did not make. */
    static List<Path> of(ToolCall call) {
        return call instanceof WalkLimits ? ((WalkLimits) call).excludedDirectories() : List.of();
    }
}
