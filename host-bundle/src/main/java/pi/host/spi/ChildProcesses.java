package pi.host.spi;

import java.io.IOException;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Starts a program the way the host starts its own children (Bash, background tasks), for the other
 * host bundles that start programs (the MCP bridge's stdio servers, later ones). The child gets
 * exactly the streams the builder asks for and nothing else of the host: no other descriptor, the
 * builder's environment, default signal handling; it leads a process group of its own, so its
 * whole tree can be killed. Implemented by the tools bundle.
 *
 * <p>Why: the host's own stdin and stdout are the RPC channel and its stderr the client's log; a child
 * that inherited them could read the client's requests or write answers the host never gave
 * (docs/security.md, "Tool processes and the RPC channel").
 */
@ProviderType
public interface ChildProcesses {

    /**
     * Starts {@code builder}'s command with its directory, environment and redirects. stdin: a file
     * ({@code Redirect.from(new File("/dev/null"))} unless the protocol needs a pipe) or
     * {@code Redirect.PIPE}; stdout and stderr: pipes, files or {@code Redirect.DISCARD}.
     *
     * @throws IllegalArgumentException when a stream is {@code Redirect.INHERIT}, or there is no command
     * @throws IOException when the program cannot be started
     */
    Child start(ProcessBuilder builder) throws IOException;

    /** A started child. */
    @ProviderType
    interface Child {

        /** The process: its streams and exit as {@link ProcessBuilder#start()} gives them. */
        Process process();

        /**
         * Ends the child and everything it started: SIGTERM to its group, its descendants and every
         * process that inherited its marker, a short grace, then SIGKILL until none is left. Returns
         * within about a second.
         */
        void killTree();
    }
}
