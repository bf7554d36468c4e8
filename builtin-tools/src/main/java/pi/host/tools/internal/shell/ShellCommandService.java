package pi.host.tools.internal.shell;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.spi.ChildProcesses;
import pi.host.spi.ShellCommands;

/**
 * {@link ShellCommands}: a command line started as the Bash tool starts one ({@code bash -lc} of the
 * resolved shell, the login-shell PATH, the host's environment less the tree marker plus the
 * variables, stdin {@code /dev/null}), through {@link ChildProcesses}, so its tree is started, marked
 * and killed like every other child of the host.
 */
@Component(service = ShellCommands.class)
public final class ShellCommandService implements ShellCommands {

    private final ChildProcesses children;
    private final Map<String, String> hostEnv;

    @Activate
    public ShellCommandService(@Reference ChildProcesses children) {
        this.children = children;
        this.hostEnv = System.getenv();
    }

    @Override
    public ChildProcesses.Child start(String commandLine, Path directory, Map<String, String> variables)
            throws IOException {
        ShellResolver.Resolution shell = ShellResolver.resolve(hostEnv);
        if (shell.shell().isEmpty()) {
            throw new IOException(ShellResolver.guidance(shell.searched()));
        }
        ProcessBuilder builder = BashTool.environment(new ProcessBuilder(shell.shell().get().toString(), "-lc",
                commandLine).directory(directory.toFile()).redirectInput(ProcessBuilder.Redirect.from(
                        new File("/dev/null"))), hostEnv, null, variables);
        return children.start(builder);
    }
}
