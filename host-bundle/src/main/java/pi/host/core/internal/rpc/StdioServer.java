package pi.host.core.internal.rpc;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.info.HostLifecycle;
import pi.host.core.rpc.RpcConnection;
import pi.host.core.rpc.RpcEndpoint;

/**
 * Serves the RPC on the process's stdin and stdout ({@code pi-host serve --stdio}); active only when
 * the launcher sets the framework property {@code pi.host.stdio=true}. It connects and starts reading
 * once the framework reports STARTED, so the first answer never sees a half-started host. End of
 * input stops the host after every request already received has been answered. Each request runs
 * on the thread that read it; the reading passes to another thread only if the request outlasts
 * a short grace (LineTransport).
 */
@Component(immediate = true, service = {})
public final class StdioServer {

    /** Framework property that turns the stdio server on. */
    public static final String ENABLED = "pi.host.stdio";
    /** Framework property: the longest request line accepted, in bytes. */
    public static final String MAX_LINE = "pi.host.rpc.maxLineBytes";
    static final int DEFAULT_MAX_LINE = 16 * 1024 * 1024;
    private static final long DRAIN_MILLIS = 10_000;

    private final BundleContext context;
    private final RpcEndpoint endpoint;
    private final HostLifecycle lifecycle;
    private final int maxLine;
    private final AtomicBoolean started = new AtomicBoolean();
    /** The threads that read stdin and run the requests they read (LineTransport). */
    private final ExecutorService readers = Executors.newCachedThreadPool(HostRpcEndpoint.daemonThreads("pi-stdio-"));
    private final FrameworkListener onStarted;
    private volatile RpcConnection connection;
    private volatile LineTransport transport;
    private OutputStream stdout;

    @Activate
    public StdioServer(BundleContext context, @Reference RpcEndpoint endpoint, @Reference HostLifecycle lifecycle) {
        this.context = context;
        this.endpoint = endpoint;
        this.lifecycle = lifecycle;
        this.maxLine = parseMaxLine(context.getProperty(MAX_LINE));
        this.onStarted = event -> {
            if (event.getType() == FrameworkEvent.STARTED) {
                serve();
            }
        };
        if (!"true".equals(context.getProperty(ENABLED))) {
            return;
        }
        context.addFrameworkListener(onStarted);
        if (context.getBundle(0).getState() == Bundle.ACTIVE) {
            serve(); // the framework was already running (this bundle was updated)
        }
    }

    static int parseMaxLine(String configured) {
        if (configured == null || configured.isBlank()) {
            return DEFAULT_MAX_LINE;
        }
        int value = Integer.parseInt(configured.trim());
        if (value < 1024) {
            throw new IllegalArgumentException(MAX_LINE + " must be at least 1024, was " + value);
        }
        return value;
    }

    private void serve() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        // FileDescriptor.out, not System.out: the launcher points System.out at stderr so that no
        // stray print can corrupt the protocol stream.
        stdout = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
        RpcConnection c = endpoint.connect(new Stdout());
        connection = c;
        transport = new LineTransport(new FileInputStream(FileDescriptor.in), maxLine, c, readers, () -> {
            // end of input: deny waiting cards, answer everything already received, then stop
            lifecycle.announceStopping();
            try {
                c.awaitIdle(DRAIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lifecycle.requestShutdown("end of input");
        });
        transport.start();
    }

    /** stdout as a sink: a line is flushed at once, or, inside an {@link OutputBatch}, with the batch's others. */
    private final class Stdout implements BufferedSink {
        @Override
        public void write(String message) {
            try {
                stdout.write(message.getBytes(StandardCharsets.UTF_8));
                stdout.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException("stdout closed", e);
            }
        }

        @Override
        public void flush() {
            try {
                stdout.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("stdout closed", e);
            }
        }
    }

    @Deactivate
    private void deactivate() throws InterruptedException {
        context.removeFrameworkListener(onStarted);
        RpcConnection c = connection;
        if (c != null) {
            c.awaitIdle(DRAIN_MILLIS);
            c.close();
        }
        LineTransport t = transport;
        if (t != null) {
            t.stop();
        }
        // no interrupt: a thread blocked reading stdin cannot be woken by one, and it is a daemon
        readers.shutdown();
    }
}
