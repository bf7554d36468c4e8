package pi.host.spi;

import java.nio.file.Path;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What the host's call object says about a call's roots beyond {@link pi.host.api.ToolCall}'s workspace
 * root and scratch dir (spi 1.1.0): the session's visualization dir, and the variables a command of this
 * call gets (an isolated session's {@code PI_PORT}, {@code PI_PROJECT_ROOT}, {@code PI_WORKTREE_ROOT}).
 * The host's calls implement it; a builtin reads it with {@code instanceof}.
 */
@ProviderType
public interface CallRoots {

    /** The session's visualization dir (real, perhaps not created yet), or null while inline visualizations are off. */
    Path visualizationDir();

    /** The variables the host gives a command this call starts (none for an ordinary session). */
    Map<String, String> commandVariables();
}
