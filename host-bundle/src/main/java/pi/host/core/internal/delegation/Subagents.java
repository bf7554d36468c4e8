package pi.host.core.internal.delegation;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.catalog.Catalog;
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

    private final DefinitionLoader loader;
    private final Path userDir;
    private final Function<OperatingMode, Collection<String>> catalogKeys;

    @Activate
    public Subagents(@Reference StoreComponent store, @Reference Catalog catalog) {
        this(DefinitionLoader.withShippedBuiltins(), store.dataDir().resolve(USER_FOLDER),
                mode -> catalog.admitted(mode).stream().map(RegisteredTool::name).collect(Collectors.toSet()));
    }

    /**
     * @param catalogKeys the names a mode's catalog offers, deferred tools included (what
     *     {@code tools: inherit} unions with)
     */
    public Subagents(DefinitionLoader loader, Path userDir, Function<OperatingMode, Collection<String>> catalogKeys) {
        this.loader = loader;
        this.userDir = userDir;
        this.catalogKeys = catalogKeys;
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
        return loader.load(userDir, session.temporary() ? null : Path.of(session.projectRoot()));
    }

    /** The tools a definition's delegate may call in the session's current mode, sorted. */
    public Set<String> tools(SubagentDefinition definition, OperatingMode mode) {
        return definition.tools().resolve(definition.tools().inherit() ? catalogKeys.apply(mode) : List.of());
    }
}
