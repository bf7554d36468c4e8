package pi.host.core.internal.delegation;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StoreComponent;

/**
 * The subagent definitions of a session and the tool set each one resolves to (spec §10.2). The
 * host computes both itself, from the files, never from what a client says a delegate may do.
 */
@Component(service = Subagents.class)
public final class Subagents {

    /** The user's definitions: {@code <data_dir>/agents/*.md}. */
    public static final String USER_FOLDER = "agents";

    private final Supplier<DefinitionLoader> shipped;
    private volatile DefinitionLoader loader;
    private final Path userDir;
    private final Function<OperatingMode, Collection<String>> catalogKeys;

    @Activate
    public Subagents(@Reference StoreComponent store, @Reference Catalog catalog, @Reference FirstAnswer firstAnswer) {
        this(store.dataDir().resolve(USER_FOLDER), catalog, firstAnswer);
    }

    /** The shipped definitions and the user's under {@code userDir}, parsed after the first answer. */
    Subagents(Path userDir, Catalog catalog, FirstAnswer firstAnswer) {
        this(DefinitionLoader::withShippedBuiltins, userDir,
                mode -> catalog.admitted(mode).stream().map(RegisteredTool::name).collect(Collectors.toSet()));
        // parsing the shipped definitions is the host's first use of the YAML parser (its classes and their
        // first, interpreted run): the first answer needs neither, so they are parsed after it; a call that
        // needs them sooner parses them itself and waits at most for a parse under way (docs/performance-log.md);
        // it waits for a tool call under way to end (FirstAnswer#warmUp)
        firstAnswer.warmUp(this::loader);
    }

    /**
     * Subagents with these definitions (tests and embedding; a static factory, as DS takes the first public
     * constructor of its arity).
     *
     * @param catalogKeys the names a mode's catalog offers, deferred tools included (what
     *     {@code tools: inherit} unions with)
     */
    public static Subagents of(DefinitionLoader loader, Path userDir,
            Function<OperatingMode, Collection<String>> catalogKeys) {
        return new Subagents(() -> loader, userDir, catalogKeys);
    }

    private Subagents(Supplier<DefinitionLoader> shipped, Path userDir,
            Function<OperatingMode, Collection<String>> catalogKeys) {
        this.shipped = shipped;
        this.userDir = userDir;
        this.catalogKeys = catalogKeys;
    }

    /** Whether the shipped definitions are parsed (for tests: when the warm-up ran). */
    boolean loaded() {
        return loader != null;
    }

    private DefinitionLoader loader() {
        DefinitionLoader l = loader;
        if (l == null) {
            synchronized (this) {
                l = loader;
                if (l == null) {
                    l = shipped.get();
                    loader = l;
                }
            }
        }
        return l;
    }

    public Path userDir() {
        return userDir;
    }

    /** The folder a session's project definitions are read from, or null for a temporary session. */
    public static Path projectDir(SessionRecord session) {
        return session.temporary() ? null : Path.of(session.projectRoot()).resolve(".pi").resolve("agents");
    }

    /** Loads the session's definitions now (files changed since the last load are parsed again). */
    public Definitions definitions(SessionRecord session) {
        return loader().load(userDir, session.temporary() ? null : Path.of(session.projectRoot()));
    }

    /** The tools a definition's delegate may call in the session's current mode, sorted. */
    public Set<String> tools(SubagentDefinition definition, OperatingMode mode) {
        return definition.tools().resolve(definition.tools().inherit() ? catalogKeys.apply(mode) : List.of());
    }
}
