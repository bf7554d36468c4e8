package pi.host.plugins.check;

import java.util.List;

/**
 * What {@link PluginInspector} found: the validated descriptor (null unless there are no errors),
 * the errors (any one keeps the plugin from loading) and the warnings (it loads anyway).
 */
public final class PluginReport {

    private final PluginDescriptor descriptor;
    private final String declaredId;
    private final List<Problem> errors;
    private final List<Problem> warnings;

    PluginReport(PluginDescriptor descriptor, String declaredId, List<Problem> errors, List<Problem> warnings) {
        this.errors = List.copyOf(errors);
        this.warnings = List.copyOf(warnings);
        this.descriptor = this.errors.isEmpty() ? descriptor : null;
        this.declaredId = declaredId;
    }

    /** The descriptor, when the plugin has no errors; null otherwise. */
    public PluginDescriptor descriptor() {
        return descriptor;
    }

    /**
     * The {@code id} string the descriptor declares, even when it or something else is invalid (so an
     * invalid plugin can still be named); null when there is no readable id at all.
     */
    public String declaredId() {
        return declaredId;
    }

    /** True when nothing keeps the plugin from loading. */
    public boolean valid() {
        return errors.isEmpty();
    }

    public List<Problem> errors() {
        return errors;
    }

    public List<Problem> warnings() {
        return warnings;
    }

    @Override
    public String toString() {
        return (valid() ? "valid" : errors.size() + " error(s)") + ", " + warnings.size() + " warning(s)";
    }
}
