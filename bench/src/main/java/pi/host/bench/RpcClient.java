package pi.host.bench;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One thread's in-process JSON-RPC client: writes a request line to its connection and parks until
 * the response arrives on the host's thread. One request in flight at a time, so the first
 * response line is the answer; notifications (every connection sees every {@code tool.completed})
 * are skipped by their prefix, without parsing.
 */
final class RpcClient implements Consumer<String>, AutoCloseable {

    /** How the host serializes a response (jsonrpc, then id); a notification has "method" second. */
    private static final String RESPONSE = "{\"jsonrpc\":\"2.0\",\"id\":";
    private static final Pattern SESSION_ID = Pattern.compile("\"sessionId\":\"([^\"]+)\"");
    private static final long TIMEOUT_NANOS = 30_000_000_000L;

    private final Consumer<String> connection;
    private final String prefix;
    private volatile Thread waiter;
    private volatile String answer;
    /** Volatile so that the benchmark's iteration hooks can read another thread's count. */
    private volatile long nextId;
    private long aborts;

    /**
     * @param prefix makes this client's toolCallIds unique across clients of one session
     */
    @SuppressWarnings("unchecked")
    RpcClient(EmbeddedHost host, String prefix) {
        this.prefix = prefix;
        this.connection = (Consumer<String>) host.connect(this);
    }

    @Override
    public void accept(String line) {
        if (line.startsWith(RESPONSE)) {
            answer = line;
            LockSupport.unpark(waiter);
        }
    }

    /** Sends one request line and returns the response line. */
    String call(String request) {
        answer = null;
        waiter = Thread.currentThread();
        connection.accept(request);
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        String a;
        while ((a = answer) == null) {
            LockSupport.parkNanos(this, 1_000_000_000L);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no response within 30 s to " + request);
            }
        }
        return a;
    }

    /** One tools.execute of the no-op tool; fails loudly unless the result is ok. */
    String execute(String sessionId) {
        long id = nextId + 1;
        nextId = id;
        String response = call("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools.execute\",\"params\":{"
                + "\"sessionId\":\"" + sessionId + "\",\"turnId\":\"t1\",\"toolCallId\":\"" + prefix + id
                + "\",\"name\":\"" + EmbeddedHost.TOOL + "\",\"arguments\":{\"text\":\"hello\"}}}");
        if (response.indexOf("\"ok\":true") < 0) {
            throw new IllegalStateException("the call failed: " + response);
        }
        return response;
    }

    /** tools.abort of a call that does not exist: the cheapest request there is. */
    String abort(String sessionId) {
        long id = ++aborts;
        return call("{\"jsonrpc\":\"2.0\",\"id\":\"a" + id + "\",\"method\":\"tools.abort\",\"params\":{"
                + "\"sessionId\":\"" + sessionId + "\",\"toolCallId\":\"none\"}}");
    }

    /** Activates an on-demand tool for the session with ToolSearch (plugin tools run only once active). */
    void activate(String sessionId, String toolName) {
        String response = call("{\"jsonrpc\":\"2.0\",\"id\":\"act\",\"method\":\"tools.execute\",\"params\":{"
                + "\"sessionId\":\"" + sessionId + "\",\"turnId\":\"bench\",\"toolCallId\":\"activate-"
                + System.nanoTime() + "\",\"name\":\"ToolSearch\",\"arguments\":{\"query\":\"" + toolName + "\"}}}");
        if (!response.contains("\"ok\":true") || !response.contains(toolName)) {
            throw new IllegalStateException("activating " + toolName + " failed: " + response);
        }
    }

    /** session.create on {@code projectRoot}; returns the session id. */
    String createSession(String projectRoot) {
        String response = call("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session.create\",\"params\":{"
                + "\"projectRoot\":\"" + projectRoot.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}}");
        Matcher m = SESSION_ID.matcher(response);
        if (!m.find()) {
            throw new IllegalStateException("session.create failed: " + response);
        }
        return m.group(1);
    }

    /** tools.execute calls answered ok so far. */
    long calls() {
        return nextId;
    }

    @Override
    public void close() throws Exception {
        ((AutoCloseable) connection).close();
    }
}
