package pi.host.tools.internal.process;

import java.io.IOException;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.spi.ChildProcesses;

/**
 * {@link ChildProcesses} for the other host bundles: the supervisor that starts Bash's commands
 * starts theirs, so every child of the host is started, marked and killed one way.
 */
@Component(service = ChildProcesses.class)
public final class ChildProcessService implements ChildProcesses {

    private final ProcessSupervisor supervisor;

    @Activate
    public ChildProcessService(@Reference ProcessSupervisor supervisor) {
        this.supervisor = supervisor;
    }

    @Override
    public Child start(ProcessBuilder builder) throws IOException {
        for (ProcessBuilder.Redirect r : List.of(builder.redirectInput(), builder.redirectOutput(),
                builder.redirectError())) {
            if (r.type() == ProcessBuilder.Redirect.Type.INHERIT) {
                // the host's own 0, 1 and 2 are the RPC channel and the client's log
                throw new IllegalArgumentException("a child never inherits the host's stdin, stdout or stderr");
            }
        }
        List<String> command = List.copyOf(builder.command());
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command to start");
        }
        ProcessSupervisor.Started started = supervisor.start(builder, command);
        return new Child() {
            @Override
            public Process process() {
                return started.process();
            }

            @Override
            public void killTree() {
                supervisor.killTree(started);
            }
        };
    }
}
