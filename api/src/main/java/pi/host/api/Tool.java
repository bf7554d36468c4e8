package pi.host.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Declares a {@link ToolProvider} component's metadata as service properties, so the host can
 * name, classify and list a tool without calling into it:
 *
 * <pre>{@code
 * @Component(service = ToolProvider.class)
 * @Tool(name = "status", risk = Risk.LOW, actions = {"status"}, planSafeActions = {"status"})
 * public final class GitStatus implements ToolProvider { ... }
 * }</pre>
 *
 * <p>Providers that register without Declarative Services set the same properties by hand
 * ({@code pi.tool.name}, {@code pi.tool.risk}, ...).
 */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Tool {
    /** Prefix of every property this annotation produces. */
    String PREFIX_ = "pi.tool.";

    /** Property name of the tool's local name. */
    String NAME = "pi.tool.name";
    /** Property name of the declared risk ({@code low}, {@code medium}, {@code high}). */
    String RISK = "pi.tool.risk";
    /** Property name of the actions the tool supports. */
    String ACTIONS = "pi.tool.actions";
    /** Property name of the actions that may run in Plan and Goal mode. */
    String PLAN_SAFE_ACTIONS = "pi.tool.planSafeActions";
    /** Property name of the deferred flag (listed on demand, activated by ToolSearch). */
    String DEFERRED = "pi.tool.deferred";
    /** Property name of the one-line summary shown in the on-demand catalog. */
    String SUMMARY = "pi.tool.summary";
    /** Property name of the argument that holds the tool's path (builtins only). */
    String PATH_ARG = "pi.tool.pathArg";
    /** Property name of what that path must name, a {@link PathKind} name (builtins only). */
    String PATH_KIND = "pi.tool.pathKind";
    /** Property name of the flag that marks a tool as mutating (serialized per session). */
    String MUTATES = "pi.tool.mutates";
    /** Property name of the time budget of one call, in milliseconds. */
    String TIMEOUT_MS = "pi.tool.timeoutMs";

    /** The budget of a call when a tool declares none. */
    long DEFAULT_TIMEOUT_MS = 120_000;

    /** The tool's name inside its provider; the host decides the name the model sees. */
    String name();

    /** The declared risk; the host may raise it (plugins and MCP tools never go below medium when unsure). */
    Risk risk() default Risk.MEDIUM;

    /** Actions the tool supports (the {@code action} argument); empty when it has none. */
    String[] actions() default {};

    /** Actions allowed in Plan and Goal mode; a subset of {@link #actions()}. Empty hides the tool there. */
    String[] planSafeActions() default {};

    /** True when the tool's schema is sent only after activation (spec §2.1). */
    boolean deferred() default false;

    /** One line for the on-demand catalog. */
    String summary() default "";

    /**
     * The argument that holds the path the tool acts on; the host resolves and confines it against
     * the session roots before policy and again right before execution, locks it and lists it in the
     * audit row. Honoured for builtins only; a builtin that touches more than one path names them all
     * in {@code pi.host.spi.PreparedTool#prepare} instead.
     */
    String pathArg() default "";

    /** What {@link #pathArg()} must name. */
    PathKind pathKind() default PathKind.NONE;

    /** True for tools that change the workspace or run commands: one at a time per session. */
    boolean mutates() default false;

    /** How long one call may run before the host answers TOOL_TIMEOUT and cancels it. */
    long timeoutMs() default DEFAULT_TIMEOUT_MS;
}
