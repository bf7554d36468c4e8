package pi.host.spi;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Starts a command line the way the Bash tool starts one (spi 1.1.0): the user's default command shell
 * ({@code bash -lc} here), the login-shell PATH, the host's environment with the given variables, stdin
 * {@code /dev/null} and pipes of its own, a process group of its own. For the host's own commands of
 * the user's (an isolated worktree's setup command). Implemented by the tools bundle.
 */
@ProviderType
public interface ShellCommands {

    /**
     * @param commandLine the command, in the shell's own syntax (not translated)
     * @param directory its working directory
     * @param variables added to its environment (over the host's)
     * @throws IOException when no shell is found or it cannot be started
     */
    ChildProcesses.Child start(String commandLine, Path directory, Map<String, String> variables) throws IOException;
}
