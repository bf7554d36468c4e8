package pi.host.mcp.internal.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads {@code <data_dir>/mcp.json} in the format other MCP clients use
 * ({@code {"mcpServers": {"<id>": {...}}}}). Each entry is checked on its own: a bad entry becomes a
 * {@link Problem} with the reason and never keeps the others from starting. Nothing here starts anything.
 */
public final class McpConfig {

    /** The file's name under the data dir. Only this user file configures servers, never a project's. */
    public static final String FILE = "mcp.json";
    /** Largest file read (a configuration, not data). */
    static final long MAX_BYTES = 1 << 20;
    static final int MAX_ID_LENGTH = 64;
    static final long MAX_TIMEOUT_MS = 3_600_000;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        JSON.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
    }

    /** What is wrong with one entry ({@code id}) or with the whole file ({@code id == null}). */
    public record Problem(String id, String transport, String message) {
    }

    /**
     * The file's servers and problems, in id order.
     *
     * @param readable false when the file itself could not be read or parsed ({@link #problems} says why);
     *     the caller then keeps what it runs
     */
    public record Parsed(boolean readable, List<ServerSpec> servers, List<Problem> problems) {
        public Parsed {
            servers = List.copyOf(servers);
            problems = List.copyOf(problems);
        }
    }

    private McpConfig() {
    }

    /** Reads and checks the file; a missing file configures no server. */
    public static Parsed read(Path file, Path home) {
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) {
                return unreadable("mcp.json is larger than " + MAX_BYTES + " bytes");
            }
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            return new Parsed(true, List.of(), List.of());
        } catch (IOException | RuntimeException e) {
            return unreadable("mcp.json cannot be read: " + e.getMessage());
        }
        return parse(text, home);
    }

    /** Checks the text of an {@code mcp.json}. */
    public static Parsed parse(String text, Path home) {
        JsonNode root;
        try {
            root = text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
        } catch (IOException e) {
            return unreadable("mcp.json is not valid JSON: " + firstLine(e.getMessage()));
        }
        if (!root.isObject()) {
            return unreadable("mcp.json must hold a JSON object with \"mcpServers\"");
        }
        JsonNode servers = root.get("mcpServers");
        if (servers == null || servers.isNull()) {
            return new Parsed(true, List.of(), List.of());
        }
        if (!servers.isObject()) {
            return unreadable("\"mcpServers\" must be an object of server entries keyed by id");
        }
        Map<String, ServerSpec> valid = new TreeMap<>();
        List<Problem> problems = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = servers.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            try {
                valid.put(e.getKey(), entry(e.getKey(), e.getValue(), home));
            } catch (Invalid bad) {
                problems.add(new Problem(e.getKey(), bad.transport, bad.getMessage()));
            }
        }
        problems.sort(java.util.Comparator.comparing(Problem::id));
        return new Parsed(true, new ArrayList<>(valid.values()), problems);
    }

    private static ServerSpec entry(String id, JsonNode e, Path home) throws Invalid {
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH || id.codePoints().anyMatch(Character::isISOControl)) {
            throw new Invalid(null, "a server id must be 1 to " + MAX_ID_LENGTH + " characters without control"
                    + " characters");
        }
        if (!e.isObject()) {
            throw new Invalid(null, "the entry must be an object with \"command\" (stdio) or \"url\" (http)");
        }
        boolean hasCommand = e.has("command");
        boolean hasUrl = e.has("url");
        String type = optText(e, "type", null);
        if (type != null && !List.of("stdio", "http", "streamable-http", "streamableHttp").contains(type)) {
            throw new Invalid(type, "transport type '" + type + "' is not supported (stdio or http; the"
                    + " deprecated SSE transport is not offered)");
        }
        String transport = hasUrl && !hasCommand ? "http" : hasCommand && !hasUrl ? "stdio" : null;
        if (hasCommand == hasUrl) {
            throw new Invalid(null, "the entry needs exactly one of \"command\" (stdio) or \"url\" (http)");
        }
        long timeoutMs = timeout(e, transport);
        boolean disabled = flag(e, "disabled", transport);
        if (hasCommand) {
            String command = optText(e, "command", transport);
            if (command == null || command.isBlank()) {
                throw new Invalid(transport, "\"command\" must be a non-empty string");
            }
            List<String> args = strings(e.get("args"), "args", transport);
            Map<String, String> env = stringMap(e.get("env"), "env", transport);
            Path cwd = cwd(optText(e, "cwd", transport), home, transport);
            return new ServerSpec(id, ServerSpec.Transport.STDIO, command, args, env, cwd, null, Map.of(), timeoutMs,
                    disabled);
        }
        String url = optText(e, "url", transport);
        URI uri;
        try {
            uri = new URI(url == null ? "" : url);
        } catch (URISyntaxException bad) {
            throw new Invalid(transport, "\"url\" is not a URL: " + bad.getMessage());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new Invalid(transport, "\"url\" must be an http or https URL with a host");
        }
        Map<String, String> headers = stringMap(e.get("headers"), "headers", transport);
        return new ServerSpec(id, ServerSpec.Transport.HTTP, null, List.of(), Map.of(), null, uri, headers, timeoutMs,
                disabled);
    }

    private static long timeout(JsonNode e, String transport) throws Invalid {
        JsonNode t = e.get("timeoutMs");
        if (t == null || t.isNull()) {
            return ServerSpec.DEFAULT_TIMEOUT_MS;
        }
        if (!t.canConvertToExactIntegral() || t.asLong() < 1 || t.asLong() > MAX_TIMEOUT_MS) {
            throw new Invalid(transport, "\"timeoutMs\" must be a whole number of milliseconds from 1 to "
                    + MAX_TIMEOUT_MS);
        }
        return t.asLong();
    }

    private static Path cwd(String cwd, Path home, String transport) throws Invalid {
        if (cwd == null) {
            return home;
        }
        Path p = cwd.equals("~") ? home : cwd.startsWith("~/") ? home.resolve(cwd.substring(2)) : Path.of(cwd);
        if (!p.isAbsolute()) {
            throw new Invalid(transport, "\"cwd\" must be an absolute path (or start with ~/)");
        }
        return p.normalize();
    }

    private static boolean flag(JsonNode e, String field, String transport) throws Invalid {
        JsonNode v = e.get(field);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new Invalid(transport, "\"" + field + "\" must be true or false");
        }
        return v.booleanValue();
    }

    private static String optText(JsonNode e, String field, String transport) throws Invalid {
        JsonNode v = e.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new Invalid(transport, "\"" + field + "\" must be a string");
        }
        return v.textValue();
    }

    private static List<String> strings(JsonNode v, String field, String transport) throws Invalid {
        if (v == null || v.isNull()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (v.isArray()) {
            for (JsonNode n : v) {
                if (!n.isTextual()) {
                    throw new Invalid(transport, "\"" + field + "\" must be an array of strings");
                }
                out.add(n.textValue());
            }
            return out;
        }
        throw new Invalid(transport, "\"" + field + "\" must be an array of strings");
    }

    private static Map<String, String> stringMap(JsonNode v, String field, String transport) throws Invalid {
        if (v == null || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw new Invalid(transport, "\"" + field + "\" must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isTextual()) {
                throw new Invalid(transport, "\"" + field + "\"." + f.getKey() + " must be a string");
            }
            out.put(f.getKey(), f.getValue().textValue());
        }
        return out;
    }

    private static Parsed unreadable(String why) {
        return new Parsed(false, List.of(), List.of(new Problem(null, null, why)));
    }

    private static String firstLine(String message) {
        String m = message == null ? "" : message;
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** An entry that cannot be used. */
    private static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;
        private final String transport;

        Invalid(String transport, String message) {
            super(message, null, false, false);
            this.transport = transport;
        }
    }
}
