package pi.host.core.internal.execute;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import pi.host.api.ErrorCode;
import pi.host.api.ResolvedPath;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.paths.PathException;
import pi.host.core.internal.paths.Resolution;
import pi.host.core.internal.policy.HostState;
import pi.host.core.internal.session.SessionService;
import pi.host.spi.DeclaredPath;

/**
 * Every path the call declared, resolved against the session's roots (spec §4: lexical and canonical
 * containment per root; outside is an explicit request) and judged: inside the host's own state is a
 * hard deny before any card (issue 13.2); outside paths and changed repository control files are
 * noted for the policy ({@link PathFacts}). In the re-check each path is resolved again from its raw
 * text and must land where it did (spec §4: approval cannot skip canonicalisation).
 */
final class PathStep implements Step {

    private final SessionService sessions;
    private final SessionResolvers resolvers;
    private final HostState hostState;
    private final boolean again;
    /** {@code <data_dir>/visualizations} as the data dir was named (perhaps an alias of the real one). */
    private final Path visualizationsGiven;

    /** @param again true for the re-check: each path must resolve to the location the first check found */
    PathStep(SessionService sessions, SessionResolvers resolvers, HostState hostState, boolean again) {
        this.sessions = sessions;
        this.resolvers = resolvers;
        this.hostState = hostState;
        this.again = again;
        this.visualizationsGiven = sessions.dataDir().toAbsolutePath().normalize().resolve("visualizations");
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        List<DeclaredPath> declared = call.invocation.paths();
        if (declared.isEmpty()) {
            return null;
        }
        try {
            if (e.session.temporary()) {
                sessions.ensureScratch(e.session.id()); // a temporary session's workspace is its scratch dir
            }
            if (e.workspaceRoot == null) {
                e.workspaceRoot = Path.of(e.session.workspaceRoot()); // an evaluation the roots step did not fill
            }
            e.resolver = resolvers.of(e.session.id(), e.workspaceRoot, sessions.scratchDir(e.session.id()),
                    e.visualizationDir, e.visualizationDir == null ? null
                            : visualizationsGiven.resolve(e.session.id()), e.session.isolated());
        } catch (IOException | RuntimeException ex) {
            return call.fail(ErrorCode.INVALID_ARGUMENT, "the session's roots cannot be used: " + ex.getMessage());
        }
        List<Resolution> resolutions = new ArrayList<>(declared.size());
        List<ResolvedPath> paths = new ArrayList<>(declared.size());
        for (int i = 0; i < declared.size(); i++) {
            DeclaredPath d = declared.get(i);
            try {
                if (again) {
                    Resolution checked = call.first.resolutions.get(i);
                    resolutions.add(checked);
                    paths.add(e.resolver.recheck(checked, d.kind()));
                } else {
                    Resolution r = e.resolver.resolve(d.raw(), d.kind());
                    resolutions.add(r);
                    paths.add(r.path());
                }
            } catch (PathException ex) {
                ResultEnvelope r = call.fail(ex.code(), ex.getMessage());
                return ex.suggestion().isEmpty() ? r
                        : r.withDetail("suggestion", Json.mapper().valueToTree(ex.suggestion()));
            }
        }
        e.resolutions = resolutions;
        e.paths = paths;
        e.ownRoots = e.resolver.ownRoots();
        // in the visualization dir Write and Edit make one *.html file directly in it, nothing else (§4b.1)
        for (int i = 0; i < paths.size(); i++) {
            ResolvedPath p = paths.get(i);
            if (p.root() == ResolvedPath.Root.VISUALIZATION && declared.get(i).access().changes()
                    && !(p.absolute().getParent().equals(e.visualizationDir)
                            && p.absolute().getFileName().toString().endsWith(".html"))) {
                return call.fail(ErrorCode.INVALID_ARGUMENT, call.request.name() + " may only write a single *.html"
                        + " file name directly in the visualization dir (" + e.visualizationDir + "/<name>.html), not '"
                        + declared.get(i).raw() + "'; nothing ran");
            }
        }
        // the host's own state: a hard deny before any card, in every mode, whatever grant exists
        for (int i = 0; i < paths.size(); i++) {
            if (hostState.isHostState(paths.get(i).absolute(), e.ownRoots)) {
                return call.deny(ErrorCode.TOOL_DENIED, "host-state.data-dir", "host-state",
                        hostState.refusal(call.request.name(), declared.get(i).raw()));
            }
        }
        PathFacts.judge(call.request.name(), declared, e);
        call.auditPaths = PathFacts.auditText(declared, paths);
        return null;
    }
}
