package pi.host.core.internal.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.args.CompiledSchema;
import pi.host.core.internal.args.InvalidSchemaException;
import pi.host.core.internal.args.SchemaValidator;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.policy.ModeMatrix;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.OfferedTool;
import pi.host.spi.ToolKind;

/**
 * What the model may see per operating mode (spec §2, §2.1, §10): the tools the mode admits and the
 * session is offered, with description, JSON schema and risk, and the deferred ones as compact
 * on-demand entries. Each
 * provider's description and schema are read once per service registration and compiled for
 * validation; a provider whose schema is broken is left out (and its calls fail).
 */
@Component(service = Catalog.class)
public final class Catalog {

    /**
     * A tool's text and schema as read from its provider; {@code inputSchema} is the tree {@code schema} was
     * compiled from (parsed once), never changed.
     */
    public record Described(String description, JsonNode inputSchema, CompiledSchema schema, String problem) {
        public boolean usable() {
            return problem == null;
        }
    }

    /** One entry of {@code tools.list}. */
    public record ToolEntry(String name, String description, JsonNode inputSchema, String risk) {
    }

    /** One entry of the on-demand catalog. */
    public record OnDemandEntry(String name, String summary) {
    }

    /**
     * The {@code tools.list} result.
     *
     * @param onDemandOmitted deferred tools left out of {@code onDemand} by its bound (ToolSearch still finds them)
     */
    public record Listing(List<ToolEntry> tools, List<OnDemandEntry> onDemand, int onDemandOmitted) {
    }

    /** Most entries of the on-demand catalog (spec §2.1: it is bounded). */
    public static final int MAX_ON_DEMAND = 64;

    private final ToolRegistry registry;
    private final ConcurrentHashMap<Long, Described> described = new ConcurrentHashMap<>();
    private volatile SchemaValidator validator;

    @Activate
    public Catalog(@Reference ToolRegistry registry, @Reference FirstAnswer firstAnswer) {
        this(registry);
        // The validator's set-up and first use (its classes loaded, linked and initialised by a small schema
        // and one validation) were 5-7 ms of a session's first call's own CPU (docs/performance-log.md, round
        // grep11). The first answer needs neither, so they start right after it, beside the client's next
        // request, not after a pause; a call that gets there first waits for the set-up under way (validator()).
        // Compiling the schemas themselves stays for the pause: done at once too, that warm-up's CPU inside a
        // first call's window was more than the 1.5-2 ms it saved the call, which compiles its own schema.
        firstAnswer.warmUpAtOnce(() -> validator().warmUp());
        // Setting up the validator and compiling the builtins' schemas is a noticeable part of a start; the
        // first answer needs neither, so it starts after it rather than competing with it for the CPU. A
        // call that needs them sooner sets up what it needs itself (both are lazy; it waits at most for
        // the validator being set up, which it would have done anyway). It gives way to tool calls between
        // tools: a call needs the validator and its own tool's schema, not the others' (FirstAnswer#warmUp).
        firstAnswer.warmUp(() -> warm(firstAnswer));
    }

    /** A catalog that compiles each schema when it is first needed. */
    public Catalog(ToolRegistry registry) {
        this.registry = registry;
    }

    /** Whether the schema validator is set up (for tests: when the warm-up ran). */
    boolean validatorReady() {
        return validator != null;
    }

    /** How many meta-schema documents the validator loaded, 0 when it is not set up (for tests). */
    int metaSchemaLoads() {
        SchemaValidator v = validator;
        return v == null ? 0 : v.metaSchemaLoads();
    }

    /** How many tools are described (for tests: what the warm-up did so far). */
    int describedCount() {
        return described.size();
    }

    private void warm(FirstAnswer calls) {
        validator();
        for (RegisteredTool tool : registry.all()) {
            if (!calls.giveWay()) {
                return; // the host is stopping
            }
            describe(tool);
        }
    }

    private SchemaValidator validator() {
        SchemaValidator v = validator;
        if (v == null) {
            synchronized (this) {
                v = validator;
                if (v == null) {
                    v = new SchemaValidator();
                    validator = v;
                }
            }
        }
        return v;
    }

    /** The tool's description and compiled schema, read from the provider once per registration. */
    public Described describe(RegisteredTool tool) {
        // the plain lookup first: every call comes here, and computeIfAbsent's capturing lambda and
        // its bin check were most of this method's samples
        Long id = tool.serviceId();
        Described known = described.get(id);
        return known != null ? known : described.computeIfAbsent(id, key -> read(tool));
    }

    private Described read(RegisteredTool tool) {
        String description;
        String schemaText;
        try {
            description = tool.provider().description();
            schemaText = tool.provider().inputSchema();
        } catch (RuntimeException | LinkageError e) {
            return new Described("", null, null, "the provider failed to describe the tool: " + e);
        }
        try {
            JsonNode tree = SchemaValidator.parse(schemaText); // once: compiled, and listed as it is
            // a builtin's schema is the host's own and checked against its meta-schema at build time
            // (BuiltinSchemasIT); everything else is untrusted and checked here. The origin is the
            // registry's, which it grants by the launcher's record, so no other tool can take this path
            CompiledSchema schema = tool.origin() == ToolOrigin.BUILTIN ? validator().compileBuiltinTree(tree)
                    : validator().compileTree(tree);
            return new Described(description == null ? "" : description, tree, schema, null);
        } catch (InvalidSchemaException e) {
            return new Described("", null, null, "the tool's input schema is invalid: " + e.getMessage());
        }
    }

    /** Validates arguments against the tool's schema: the problems found, empty when valid. */
    public List<String> validate(RegisteredTool tool, JsonNode arguments) {
        Described d = describe(tool);
        if (!d.usable()) {
            return List.of(d.problem());
        }
        return validator().validate(d.schema(), arguments);
    }

    /**
     * The usable tools a mode admits, in no particular order, whether or not a session is offered them
     * (what {@code tools: inherit} unions with); a session's own view is {@link #admitted(OperatingMode,
     * SessionRecord)}.
     */
    public List<RegisteredTool> admitted(OperatingMode mode) {
        List<RegisteredTool> out = new ArrayList<>();
        Set<Long> live = new HashSet<>();
        for (RegisteredTool t : registry.all()) {
            live.add(t.serviceId());
            ToolKind kind = t.kind();
            if (ModeMatrix.admit(mode, kind, !t.planSafeActions().isEmpty()).admitted() && describe(t).usable()) {
                out.add(t);
            }
        }
        described.keySet().retainAll(live); // forget providers that went away
        return out;
    }

    /** The one line a deferred tool is listed and searched by. */
    public String summary(RegisteredTool t) {
        return t.summary().isEmpty() ? firstLine(describe(t).description()) : t.summary();
    }

    /**
     * The tools a mode admits and the session is offered ({@link OfferedTool}): the session's view of
     * {@link #admitted(OperatingMode)}.
     */
    public List<RegisteredTool> admitted(OperatingMode mode, SessionRecord session) {
        List<RegisteredTool> out = new ArrayList<>();
        for (RegisteredTool t : admitted(mode)) {
            if (offer(t, session).offered()) {
                out.add(t);
            }
        }
        return out;
    }

    /** The session's deferred catalog in a mode: admitted, offered, sent only once activated. */
    public List<RegisteredTool> deferred(OperatingMode mode, SessionRecord session) {
        List<RegisteredTool> out = new ArrayList<>();
        for (RegisteredTool t : admitted(mode, session)) {
            if (t.deferred()) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Whether the session is offered the tool now: yes for every tool that does not say otherwise; a
     * tool whose answer fails is not offered (it could not say it is).
     */
    public static OfferedTool.Offer offer(RegisteredTool tool, SessionRecord session) {
        OfferedTool offered = tool.facts().offered();
        if (offered == null) {
            return ALWAYS;
        }
        try {
            OfferedTool.Offer offer = offered.offer(new OfferedTool.Session(session.id(),
                    session.temporary() ? null : Path.of(session.projectRoot())));
            return offer != null ? offer : OfferedTool.Offer.no(tool.name() + " gave no answer whether it is offered");
        } catch (RuntimeException | LinkageError e) {
            return OfferedTool.Offer.no(tool.name() + " could not say whether it is offered: " + e);
        }
    }

    private static final OfferedTool.Offer ALWAYS = OfferedTool.Offer.yes();

    /**
     * The session's tools in a mode, sorted by name: admitted and offered non-deferred tools and the
     * {@code active} deferred ones in full (a tool's offer may add to its description), the other
     * deferred ones as bounded on-demand entries.
     */
    public Listing list(OperatingMode mode, Set<String> active, SessionRecord session) {
        List<ToolEntry> tools = new ArrayList<>();
        List<OnDemandEntry> onDemand = new ArrayList<>();
        for (RegisteredTool t : admitted(mode)) {
            OfferedTool.Offer offer = offer(t, session);
            if (!offer.offered()) {
                continue;
            }
            if (t.deferred() && !active.contains(t.name())) {
                onDemand.add(new OnDemandEntry(t.name(), summary(t)));
            } else {
                Described d = describe(t);
                String description = offer.catalogText().isEmpty() ? d.description()
                        : d.description() + "\n\n" + offer.catalogText();
                tools.add(new ToolEntry(t.name(), description, d.inputSchema(), t.risk().wire()));
            }
        }
        tools.sort(Comparator.comparing(ToolEntry::name));
        onDemand.sort(Comparator.comparing(OnDemandEntry::name));
        int omitted = Math.max(0, onDemand.size() - MAX_ON_DEMAND);
        return new Listing(tools, List.copyOf(onDemand.subList(0, onDemand.size() - omitted)), omitted);
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        String line = nl < 0 ? text : text.substring(0, nl);
        return line.length() > 160 ? line.substring(0, 157) + "..." : line;
    }
}
