package pi.host.console.internal;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.console.internal.session.Console;
import pi.host.core.rpc.RpcEndpoint;

/**
 * Runs the console ({@code bin/pi-host console}) when the launcher sets {@code pi.host.console=true},
 * the way the stdio server runs only with {@code pi.host.stdio=true}: a client of the host's
 * {@link RpcEndpoint} like the desktop, with no policy of its own. It starts once the framework
 * reports STARTED, on a thread of its own; when the person leaves, it asks the host to shut down.
 */
@Component(immediate = true, service = {})
public final class ConsoleComponent {

    private final BundleContext context;
    private final FrameworkListener onStarted;
    private volatile Console console;
    private volatile Thread thread;

    @Activate
    public ConsoleComponent(BundleContext context, @Reference RpcEndpoint endpoint) {
        this.context = context;
        this.onStarted = event -> {
            if (event.getType() == FrameworkEvent.STARTED) {
                start(endpoint);
            }
        };
        if (!"true".equals(context.getProperty(ConsoleOptions.ENABLED))) {
            return;
        }
        context.addFrameworkListener(onStarted);
        if (context.getBundle(0).getState() == Bundle.ACTIVE) {
            start(endpoint); // the framework was already running (this bundle was updated)
        }
    }

    private synchronized void start(RpcEndpoint endpoint) {
        if (thread != null) {
            return;
        }
        // System.console() is null unless both stdin and stdout are a terminal: a script, or output
        // piped to another program, gets the plain mode
        ConsoleOptions options = ConsoleOptions.from(context::getProperty, System.getenv(), System.console() != null);
        Console c = new Console(options, endpoint);
        console = c;
        Thread t = new Thread(c::run, "pi-console");
        thread = t;
        t.start();
    }

    @Deactivate
    private void deactivate() throws InterruptedException {
        context.removeFrameworkListener(onStarted);
        Console c = console;
        if (c != null) {
            c.stop(); // restores the terminal, ends the read
        }
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            t.join(2000);
        }
    }
}
