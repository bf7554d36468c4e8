package pi.host.tools.internal.shell;

import java.util.Optional;
import org.osgi.service.component.annotations.Component;
import pi.host.spi.LoginShellPath;

/**
 * Offers the one login-PATH probe of this process ({@link LoginPath}) to other host bundles through
 * {@code pi.host.spi}, so the MCP bridge spawns stdio servers with the PATH Bash uses instead of probing again.
 */
@Component(service = LoginShellPath.class)
public final class LoginShellPathService implements LoginShellPath {

    @Override
    public Optional<String> path() {
        return LoginPath.get(System.getenv());
    }
}
