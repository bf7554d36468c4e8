package pi.host.bench.probe;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import pi.host.core.rpc.RpcConnection;
import pi.host.core.rpc.RpcEndpoint;

/**
 * The benchmark's probe bundle, written and installed at benchmark setup (EmbeddedHost): hands
 * the benchmark, through JDK types only, a direct call of the no-op tool (the baseline; the tool the
 * host calls is the bench plugin's), connections to the host's {@link RpcEndpoint}, and Read's file
 * open both ways ({@link FileReads}). A plain
 * activator keeps the throw-away bundle to a manifest and a few classes.
 */
public final class ProbeActivator implements BundleActivator {

    /** Service property telling the probe's two JDK-typed services apart. */
    public static final String ROLE = "pi.bench.probe";

    @Override
    public void start(BundleContext context) {
        // the tool itself is the bench plugin's (a Pi-Plugin bundle EmbeddedHost installs and grants);
        // this copy is only for the direct-call baseline
        NoopTool tool = new NoopTool();
        Dictionary<String, Object> direct = new Hashtable<>();
        direct.put(ROLE, "direct");
        context.registerService(Supplier.class, new DirectCall(tool), direct);

        Dictionary<String, Object> rpc = new Hashtable<>();
        rpc.put(ROLE, "rpc");
        Function<Consumer<String>, Object> connect = out -> connect(context, out);
        context.registerService(Function.class, connect, rpc);

        for (boolean pinned : new boolean[] {false, true}) {
            Dictionary<String, Object> read = new Hashtable<>();
            read.put(ROLE, pinned ? "pinnedRead" : "plainRead");
            context.registerService(Function.class, new FileReads(context, pinned), read);
        }
    }

    /**
     * A connection as a {@code Consumer<String>} that is also {@link AutoCloseable}: {@code accept}
     * runs the line's request on the calling thread and returns once its answer went to {@code out}.
     */
    private static Object connect(BundleContext context, Consumer<String> out) {
        ServiceReference<RpcEndpoint> ref = context.getServiceReference(RpcEndpoint.class);
        RpcEndpoint endpoint = ref == null ? null : context.getService(ref);
        if (endpoint == null) {
            throw new IllegalStateException("the host's RpcEndpoint is not registered (yet)");
        }
        return new Line(endpoint.connect(out));
    }

    @Override
    public void stop(BundleContext context) {
        // the framework unregisters the services
    }

    private static final class Line implements Consumer<String>, AutoCloseable {
        private final RpcConnection connection;

        Line(RpcConnection connection) {
            this.connection = connection;
        }

        @Override
        public void accept(String line) {
            connection.receiveOnCallingThread(line);
        }

        @Override
        public void close() {
            connection.close();
        }
    }
}
