package pi.host.core.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.secrets.SecretFiles;
import pi.host.core.internal.store.SettingsStore;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;

/**
 * App settings (PROTOCOL.md {@code settings.*}): validated on write, persisted, cached for the hot
 * path. Secrets are write-only: reads say whether one is saved, never what it is, and they are kept
 * apart from the database ({@link SecretFiles}).
 */
@Component(service = SettingsService.class)
public final class SettingsService {

    public static final String DEFAULT_PERMISSION_MODE = "defaultPermissionMode";
    public static final String DEFAULT_COMMAND_SHELL = "defaultCommandShell";
    public static final String INLINE_VISUALIZATIONS = "inlineVisualizations";
    public static final String BROWSER_ENABLED = "browser.enabled";
    public static final String JEV_ENABLED = "jev.enabled";
    public static final String JEV_API_KEY = "jev.apiKey";
    /** Per project folder, the command that runs once in each new isolated worktree (spec §4e). */
    public static final String WORKTREE_SETUP_COMMANDS = "worktree.setupCommands";
    /** The setup command's bound, in seconds. */
    public static final String WORKTREE_SETUP_TIMEOUT = "worktree.setupTimeoutSeconds";
    public static final String JEV_ENDPOINT = "jev.endpoint";
    /** The provider's evaluation endpoint (TypeSafe's System One API, docs/protocol.md "JevClassify"). */
    public static final String DEFAULT_JEV_ENDPOINT = "https://api.typesafe.ai/v1/systemone";
    /** What a key may look like: printable ASCII, no spaces (it goes into an HTTP header). */
    private static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("[\\x21-\\x7e]{8,4096}");

    /** Shell ids this platform offers (the shell catalog grows with the Bash issue). */
    static final Set<String> SHELLS = Set.of("bash");

    private static final Map<String, String> DEFAULTS = Map.of(
            DEFAULT_PERMISSION_MODE, "ask",
            DEFAULT_COMMAND_SHELL, "bash",
            INLINE_VISUALIZATIONS, "false",
            BROWSER_ENABLED, "true",
            JEV_ENABLED, "false",
            JEV_ENDPOINT, DEFAULT_JEV_ENDPOINT,
            WORKTREE_SETUP_COMMANDS, "{}",
            WORKTREE_SETUP_TIMEOUT, "600");

    private final SettingsStore store;
    /** Where write-only settings go; null: none can be saved (a service without a data dir). */
    private final SecretFiles secrets;
    private volatile Map<String, String> cache;

    @Activate
    public SettingsService(@Reference StoreComponent store, @Reference SecretFiles secrets) {
        this(new SettingsStore(store.database()), secrets);
        moveKeyOutOfTheDatabase();
    }

    /** A service over an open store and a secrets folder (tests and embedding; DS uses the constructor above). */
    public static SettingsService over(SettingsStore store, SecretFiles secrets) {
        return new SettingsService(store, secrets);
    }

    private SettingsService(SettingsStore store, SecretFiles secrets) {
        this.store = store;
        this.secrets = secrets;
    }

    /**
     * A key saved by an earlier version of the host sits in the settings table: it moves to its file
     * (unless a newer one is there) and leaves the database. A failure leaves it where it was, for the
     * next start; the host still runs.
     */
    void moveKeyOutOfTheDatabase() {
        try {
            String old = store.all().get(JEV_API_KEY);
            if (old == null) {
                return;
            }
            if (!secrets.saved(JEV_API_KEY)) {
                secrets.write(JEV_API_KEY, old);
            }
            Map<String, String> remove = new HashMap<>();
            remove.put(JEV_API_KEY, null);
            store.putAll(remove);
        } catch (StorageException | IOException | RuntimeException e) {
            System.getLogger(SettingsService.class.getName()).log(System.Logger.Level.WARNING,
                    "the saved Jev key could not be moved out of the database yet: " + e.getClass().getSimpleName());
        }
    }

    /**
     * A service over an open store whose secrets cannot be saved (tests and embedding). Factories, not
     * more public constructors: SCR takes the first public constructor of the declared arity in
     * reflection's order, which is unspecified (with a start-up archive it was another one, and the
     * component failed).
     */
    public static SettingsService over(SettingsStore store) {
        return new SettingsService(store, null);
    }

    /** The stored values over the defaults (secrets included: for the host's own use only). */
    public Map<String, String> values() throws StorageException {
        Map<String, String> c = cache;
        if (c == null) {
            Map<String, String> merged = new HashMap<>(DEFAULTS);
            merged.putAll(store.all());
            c = Map.copyOf(merged);
            cache = c;
        }
        return c;
    }

    /** The stored global default permission mode word (validated on write). */
    public String defaultPermissionMode() throws StorageException {
        return values().get(DEFAULT_PERMISSION_MODE);
    }

    /** The setup command for a project folder (canonical), or null when none is set. */
    public String setupCommand(String projectRoot) throws StorageException {
        Object command = setupCommands(values()).get(projectRoot);
        return command instanceof String && !((String) command).isBlank() ? (String) command : null;
    }

    /** The setup command's bound. */
    public java.time.Duration setupTimeout() throws StorageException {
        return java.time.Duration.ofSeconds(Integer.parseInt(values().get(WORKTREE_SETUP_TIMEOUT)));
    }

    private static Map<String, Object> setupCommands(Map<String, String> v) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = pi.host.core.internal.json.Json.mapper().readValue(v.get(WORKTREE_SETUP_COMMANDS),
                    Map.class);
            return m;
        } catch (java.io.IOException e) {
            return Map.of(); // a value the host wrote after validating it: not expected
        }
    }

    /** The settings as clients see them: typed values, secrets replaced by whether one is saved. */
    public Map<String, Object> view() throws StorageException {
        Map<String, String> v = values();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(DEFAULT_PERMISSION_MODE, v.get(DEFAULT_PERMISSION_MODE));
        out.put(DEFAULT_COMMAND_SHELL, v.get(DEFAULT_COMMAND_SHELL));
        out.put(INLINE_VISUALIZATIONS, Boolean.parseBoolean(v.get(INLINE_VISUALIZATIONS)));
        out.put(BROWSER_ENABLED, Boolean.parseBoolean(v.get(BROWSER_ENABLED)));
        out.put(JEV_ENABLED, Boolean.parseBoolean(v.get(JEV_ENABLED)));
        out.put(JEV_ENDPOINT, v.get(JEV_ENDPOINT));
        out.put("jev.apiKeySaved", keySaved());
        out.put(WORKTREE_SETUP_COMMANDS, setupCommands(v));
        out.put(WORKTREE_SETUP_TIMEOUT, Integer.parseInt(v.get(WORKTREE_SETUP_TIMEOUT)));
        return out;
    }

    /** True when a Jev key is saved (a stat of its file, never a read of the key). */
    public boolean keySaved() {
        return secrets != null && secrets.saved(JEV_API_KEY);
    }

    /**
     * Validates every field first, then writes them: the key to its file, the rest in one transaction;
     * nothing is written on a validation error, and a failed transaction puts the previous key back.
     */
    public Map<String, Object> update(ObjectNode changes) throws RpcException {
        Map<String, String> writes = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = changes.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            writes.put(f.getKey(), validate(f.getKey(), f.getValue()));
        }
        boolean keyChanges = writes.containsKey(JEV_API_KEY);
        String newKey = writes.remove(JEV_API_KEY);
        synchronized (this) {
            Optional<String> previous = Optional.empty();
            if (keyChanges) {
                if (secrets == null) {
                    throw RpcException.invalidParams(JEV_API_KEY + " cannot be saved: this host has no secrets folder");
                }
                try {
                    previous = secrets.read(JEV_API_KEY);
                } catch (IOException | RuntimeException e) {
                    previous = Optional.empty(); // no key to put back: a link or junk in its place is replaced
                }
                try {
                    if (newKey == null) {
                        secrets.delete(JEV_API_KEY);
                    } else {
                        secrets.write(JEV_API_KEY, newKey);
                    }
                } catch (IOException | RuntimeException e) {
                    // the message names the file, never the key
                    throw RpcException.storage(new IOException("the key could not be saved: "
                            + e.getClass().getSimpleName()));
                }
            }
            try {
                store.putAll(writes);
                cache = null;
            } catch (StorageException e) {
                cache = null;
                if (keyChanges) {
                    restore(previous);
                }
                throw RpcException.storage(e);
            }
        }
        try {
            return view();
        } catch (StorageException e) {
            throw RpcException.storage(e);
        }
    }

    private void restore(Optional<String> previous) {
        try {
            if (previous.isPresent()) {
                secrets.write(JEV_API_KEY, previous.get());
            } else {
                secrets.delete(JEV_API_KEY);
            }
        } catch (IOException | RuntimeException e) {
            System.getLogger(SettingsService.class.getName()).log(System.Logger.Level.WARNING,
                    "the previous Jev key could not be put back: " + e.getClass().getSimpleName());
        }
    }

    private static String validate(String key, JsonNode value) throws RpcException {
        switch (key) {
            case DEFAULT_PERMISSION_MODE:
                if (!value.isTextual() || PermissionMode.parse(value.textValue()).isEmpty()) {
                    throw RpcException.invalidParams(key + " must be one of ask, accept-edits, auto");
                }
                return value.textValue();
            case DEFAULT_COMMAND_SHELL:
                if (!value.isTextual() || !SHELLS.contains(value.textValue())) {
                    throw RpcException.invalidParams(ErrorCode.COMMAND_SHELL_INVALID,
                            key + " must be a shell id of this platform: " + SHELLS);
                }
                return value.textValue();
            case INLINE_VISUALIZATIONS:
            case BROWSER_ENABLED:
            case JEV_ENABLED:
                if (!value.isBoolean()) {
                    throw RpcException.invalidParams(key + " must be a boolean");
                }
                return Boolean.toString(value.booleanValue());
            case JEV_API_KEY:
                if (value.isNull() || (value.isTextual() && value.textValue().isEmpty())) {
                    return null; // clears the saved key
                }
                // the message never echoes the value: a near-miss key is still the user's secret
                if (!value.isTextual() || !KEY.matcher(value.textValue()).matches()) {
                    throw RpcException.invalidParams(key + " must be a string of 8 to 4096 printable ASCII characters"
                            + " without spaces (or null or \"\" to clear it)");
                }
                return value.textValue();
            case JEV_ENDPOINT:
                if (!value.isTextual()) {
                    throw RpcException.invalidParams(key + " must be a URL string");
                }
                String problem = endpointProblem(value.textValue());
                if (problem != null) {
                    throw RpcException.invalidParams(key + " " + problem);
                }
                return value.textValue();
            case WORKTREE_SETUP_COMMANDS:
                if (!value.isObject()) {
                    throw RpcException.invalidParams(key + " must be an object: {\"<absolute project folder>\": \"<command>\"}");
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!e.getValue().isTextual() || !java.nio.file.Path.of(e.getKey()).isAbsolute()) {
                        throw RpcException.invalidParams(key + ": each key is an absolute project folder and each"
                                + " value a command string");
                    }
                }
                return value.toString();
            case WORKTREE_SETUP_TIMEOUT:
                if (!value.canConvertToInt() || value.intValue() < 1 || value.intValue() > 21_600 || !value.isIntegralNumber()) {
                    throw RpcException.invalidParams(key + " must be a whole number of seconds, 1 to 21600");
                }
                return Integer.toString(value.intValue());
            default:
                throw RpcException.invalidParams("unknown setting '" + key + "'");
        }
    }

    /**
     * Why {@code url} cannot be the Jev endpoint, or null: an absolute {@code https} URL without user
     * info or fragment; plain {@code http} only to a loopback address (a local gateway or a test stub),
     * since the key travels in a header.
     */
    static String endpointProblem(String url) {
        java.net.URI uri;
        try {
            uri = new java.net.URI(url);
        } catch (java.net.URISyntaxException e) {
            return "is not a URL";
        }
        if (url.length() > 2048 || !uri.isAbsolute() || uri.getHost() == null || uri.getRawUserInfo() != null
                || uri.getRawFragment() != null) {
            return "must be an absolute URL with a host, without user info or fragment, at most 2048 characters";
        }
        String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (scheme.equals("https")) {
            return null;
        }
        if (scheme.equals("http") && java.util.Set.of("127.0.0.1", "localhost", "[::1]").contains(uri.getHost())) {
            return null;
        }
        return "must use https (plain http only to 127.0.0.1, [::1] or localhost)";
    }
}
