package pi.host.core.internal.rpc;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.info.HostLifecycle;
import pi.host.core.rpc.RpcConnection;
import pi.host.core.rpc.RpcEndpoint;

/**
 * Serves the RPC on the process's stdin and stdout ({@code pi-host serve --stdio}); active only when
 * the launcher sets the framework property {@code pi.host.stdio=true}. End of input stops the host.
 */
@Component(immediate = true, service = {})
public final class StdioServer {

    /** Framework property that turns the stdio server on. */
    public static final String ENABLED = "pi.host.stdio";
    /** Framework property: the longest request line accepted, in bytes. */
    public static final String MAX_LINE = "pi.host.rpc.maxLineBytes";
    static final int DEFAULT_MAX_LINE = 16 * 1024 * 1024;
    private static final long DRAIN_MILLIS = 10_000;

    private final RpcConnection connection;
    private final OutputStream stdout;
    private final Thread reader;

    @Activate
    public StdioServer(BundleContext context, @Reference RpcEndpoint endpoint, @Reference HostLifecycle lifecycle) {
        if (!"true".equals(context.getProperty(ENABLED))) {
            this.connection = null;
            this.stdout = null;
            this.reader = null;
            return;
        }
        int maxLine = parseMaxLine(context.getProperty(MAX_LINE));
        // FileDescriptor.out, not System.out: the launcher points System.out at stderr so that no
        // stray print can corrupt the protocol stream.
        this.stdout = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
        this.connection = endpoint.connect(this::write);
        LineReader lines = new LineReader(new FileInputStream(FileDescriptor.in), maxLine);
        this.reader = new Thread(() -> {
            try {
                lines.run(new LineReader.Handler() {
                    @Override
                    public void line(byte[] buffer, int offset, int length) {
                        connection.receive(buffer, offset, length);
                    }

                    @Override
                    public void oversized(long length) {
                        connection.receiveOversized(length, maxLine);
                    }
                });
            } catch (IOException e) {
                System.getLogger(StdioServer.class.getName()).log(System.Logger.Level.WARNING, "stdin failed", e);
            }
            lifecycle.requestShutdown("end of input");
        }, "pi-stdio-reader");
        reader.setDaemon(true);
        reader.start();
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

    private void write(String message) {
        try {
            stdout.write(message.getBytes(StandardCharsets.UTF_8));
            stdout.write('\n');
            stdout.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("stdout closed", e);
        }
    }

    @Deactivate
    private void deactivate() throws InterruptedException {
        if (connection == null) {
            return;
        }
        connection.awaitIdle(DRAIN_MILLIS);
        connection.close();
    }
}
