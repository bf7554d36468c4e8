package pi.host.bench;

import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One thread's in-process JSON-RPC client: hands a request line to its connection, which runs the
 * request on this thread ({@code RpcConnection.receiveOnCallingThread}) and has delivered the
 * response to {@link #accept} when it returns: no thread hand-off and no wake-up in a call. One
 * request at a time, so the response line seen is the answer; notifications (every connection sees
 * every {@code tool.completed}, other clients' ones on their threads) are skipped by their prefix,
 * without parsing.
 */
final class RpcClient implements Consumer<String>, AutoCloseable {

    /** How the host serializes a response (jsonrpc, then id); a notification has "method" second. */
    private static final String RESPONSE = "{\"jsonrpc\":\"2.0\",\"id\":";
    private static final Pattern SESSION_ID = Pattern.compile("\"sessionId\":\"([^\"]+)\"");

    private final Consumer<String> connection;
    private final String prefix;
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
        }
    }

    /** Sends one request line and returns the response line. */
    String call(String request) {
        answer = null;
        connection.accept(request);
        String a = answer;
        if (a == null) {
            throw new IllegalStateException("no response to " + request);
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

    /** One tools.execute of the builtin Read on {@code path}; fails loudly unless the result is ok. */
    String read(String sessionId, String path) {
        long id = nextId + 1;
        nextId = id;
        String response = call("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools.execute\",\"params\":{"
                + "\"sessionId\":\"" + sessionId + "\",\"turnId\":\"t1\",\"toolCallId\":\"" + prefix + id
                + "\",\"name\":\"Read\",\"arguments\":{\"path\":\"" + path + "\"}}}");
        if (response.indexOf("\"ok\":true") < 0) {
            throw new IllegalStateException("the Read failed: " + response);
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
