package pi.host.core.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.store.SettingsStore;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;

/**
 * App settings (PROTOCOL.md {@code settings.*}): validated on write, persisted, cached for the hot
 * path. Secrets are write-only: reads say whether one is saved, never what it is.
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

    /** Shell ids this platform offers (the shell catalog grows with the Bash issue). */
    static final Set<String> SHELLS = Set.of("bash");

    private static final Map<String, String> DEFAULTS = Map.of(
            DEFAULT_PERMISSION_MODE, "ask",
            DEFAULT_COMMAND_SHELL, "bash",
            INLINE_VISUALIZATIONS, "false",
            BROWSER_ENABLED, "true",
            JEV_ENABLED, "false",
            WORKTREE_SETUP_COMMANDS, "{}",
            WORKTREE_SETUP_TIMEOUT, "600");

    private final SettingsStore store;
    private volatile Map<String, String> cache;

    @Activate
    public SettingsService(@Reference StoreComponent store) {
        this(new SettingsStore(store.database()));
    }

    /** A service over an open store (tests and embedding). */
    public SettingsService(SettingsStore store) {
        this.store = store;
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
        out.put("jev.apiKeySaved", v.containsKey(JEV_API_KEY));
        out.put(WORKTREE_SETUP_COMMANDS, setupCommands(v));
        out.put(WORKTREE_SETUP_TIMEOUT, Integer.parseInt(v.get(WORKTREE_SETUP_TIMEOUT)));
        return out;
    }

    /** Validates every field first, then writes them in one transaction; nothing is written on error. */
    public Map<String, Object> update(ObjectNode changes) throws RpcException {
        Map<String, String> writes = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = changes.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            writes.put(f.getKey(), validate(f.getKey(), f.getValue()));
        }
        try {
            synchronized (this) {
                store.putAll(writes);
                cache = null;
            }
            return view();
        } catch (StorageException e) {
            cache = null;
            throw RpcException.storage(e);
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
                if (!value.isTextual()) {
                    throw RpcException.invalidParams(key + " must be a string (or null to clear it)");
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
}
