package pi.host.spi;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * The per-tool facts a builtin declares on itself, next to {@link pi.host.api.Tool}: what the mode
 * matrix and the policy take it for, its argument aliases, and its batch rules. The registry reads
 * them once, when the service appears, and only from tools of the host's own bundles; a plugin's or an
 * MCP tool's kind comes from its origin, whatever it declares.
 *
 * <pre>{@code
 * @Tool(name = "Read", risk = Risk.LOW, pathArg = "path", pathKind = PathKind.EXISTING_FILE)
 * @Builtin(kind = ToolKind.READ, aliases = "path=file_path", parallel = true)
 * }</pre>
 */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Builtin {
    /** Prefix of every property this annotation produces. */
    String PREFIX_ = "pi.builtin.";

    /** Property name of the kind (a {@link ToolKind} name). */
    String KIND = "pi.builtin.kind";
    /** Property name of the aliases ({@code canonical=alias}). */
    String ALIASES = "pi.builtin.aliases";
    /** Property name of the parallel flag. */
    String PARALLEL = "pi.builtin.parallel";
    /** Property name of the solo flag. */
    String SOLO = "pi.builtin.solo";

    /** What the tool is for the mode matrix and the policy; never {@link ToolKind#PLUGIN} or {@link ToolKind#MCP}. */
    ToolKind kind();

    /**
     * The one accepted alias per canonical argument, as {@code canonical=alias} (spec §4, D273): folded
     * into the canonical name before the schema sees the arguments; the canonical wins when both are
     * given, and a call with neither is INVALID_ARGUMENT (an aliased argument is required).
     */
    String[] aliases() default {};

    /** True when calls of the tool may run in parallel in one batch (spec §0: Read, Glob, Grep). */
    boolean parallel() default false;

    /** True when a call of the tool must be the only call of its batch (the Plan/Goal transitions). */
    boolean solo() default false;
}
