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

    /** Shell ids this platform offers (the shell catalog grows with the Bash issue). */
    static final Set<String> SHELLS = Set.of("bash");

    private static final Map<String, String> DEFAULTS = Map.of(
            DEFAULT_PERMISSION_MODE, "ask",
            DEFAULT_COMMAND_SHELL, "bash",
            INLINE_VISUALIZATIONS, "false",
            BROWSER_ENABLED, "true",
            JEV_ENABLED, "false");

    private final SettingsStore store;
    private volatile Map<String, String> cache;

    @Activate
    public SettingsService(@Reference StoreComponent store) {
        this(new SettingsStore(store.database()));
    }

    private SettingsService(SettingsStore store) {
        this.store = store;
    }

    /**
     * A service over an open store (tests and embedding). A factory, not a second public constructor of
     * one parameter: SCR takes the first public constructor of the declared arity in reflection's order,
     * which is unspecified (with a start-up archive it was this one, and the component failed).
     */
    public static SettingsService over(SettingsStore store) {
        return new SettingsService(store);
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
            default:
                throw RpcException.invalidParams("unknown setting '" + key + "'");
        }
    }
}
