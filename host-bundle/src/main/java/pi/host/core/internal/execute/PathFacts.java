package pi.host.core.internal.execute;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.ArrayList;
import java.util.List;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.core.internal.approval.GrantScope;
import pi.host.core.internal.policy.RepositoryFiles;
import pi.host.spi.DeclaredPath;

/**
 * What the policy needs to know about a call's resolved paths: whether one is outside the roots (spec
 * §4a), whether a changed one is a repository control file (issue 13.3), whether every changed one is
 * in the scratch or visualization dir (prompt-free, §4b, §4b.1), and the grant scope the call needs (issue 13.1); and how the
 * audit row lists them.
 */
final class PathFacts {

    private PathFacts() {
    }

    /** Fills in {@code e.outside}, {@code control}, {@code scratchTarget} and {@code scope} from {@code e.paths}. */
    static void judge(String toolName, List<DeclaredPath> declared, Evaluation e) {
        boolean outside = false;
        boolean control = false;
        boolean inRoots = false;
        int changed = 0;
        int changedInScratch = 0;
        int changedInVisualization = 0;
        List<GrantScope.Area> areas = null;
        for (int i = 0; i < declared.size(); i++) {
            DeclaredPath d = declared.get(i);
            ResolvedPath p = e.paths.get(i);
            boolean changes = d.access().changes();
            boolean isControl = changes && p.root() != ResolvedPath.Root.EXTERNAL && controlFile(p, e);
            if (changes) {
                changed++;
                if (p.root() == ResolvedPath.Root.SCRATCH) {
                    changedInScratch++;
                } else if (p.root() == ResolvedPath.Root.VISUALIZATION) {
                    changedInVisualization++;
                }
            }
            if (p.root() == ResolvedPath.Root.EXTERNAL || isControl) {
                outside |= p.root() == ResolvedPath.Root.EXTERNAL;
                control |= isControl;
                if (areas == null) {
                    areas = new ArrayList<>(2);
                }
                // a search root covers what is below it; a file only itself
                boolean below = d.kind() == PathKind.DIRECTORY || d.kind() == PathKind.FILE_OR_DIRECTORY;
                areas.add(new GrantScope.Area(p.absolute(), below));
            } else {
                inRoots = true;
            }
        }
        e.outside = outside;
        e.control = control;
        e.scratchTarget = !outside && changed > 0 && changedInScratch == changed;
        e.visualizationTarget = !outside && changed > 0 && changedInVisualization == changed;
        // null: the in-root scope of the tool, built only when a card or a grant needs it
        e.scope = areas == null ? null : new GrantScope(toolName, inRoots, areas);
    }

    /** True when an in-root location is a repository control file, judged below its root. */
    private static boolean controlFile(ResolvedPath path, Evaluation e) {
        if (path.root() == ResolvedPath.Root.WORKSPACE) {
            return RepositoryFiles.isControlFile(path.display(), true);
        }
        if (path.root() == ResolvedPath.Root.VISUALIZATION) {
            return false; // only single *.html names are written there (PathStep)
        }
        StringBuilder rel = new StringBuilder();
        e.resolver.scratchRoot().relativize(path.absolute())
                .forEach(n -> rel.append(rel.length() == 0 ? "" : "/").append(n));
        return RepositoryFiles.isControlFile(rel.toString(), false);
    }

    /** The audit row's {@code paths}: {@code [{"path": display, "root": …, "access": …}, …]}. */
    static String auditText(List<DeclaredPath> declared, List<ResolvedPath> paths) {
        StringBuilder b = new StringBuilder(32 + 48 * paths.size()).append('[');
        JsonStringEncoder json = JsonStringEncoder.getInstance();
        for (int i = 0; i < paths.size(); i++) {
            ResolvedPath p = paths.get(i);
            b.append(i == 0 ? "{\"path\":\"" : ",{\"path\":\"");
            json.quoteAsString(p.display(), b);
            b.append("\",\"root\":\"").append(p.root().wire()).append("\",\"access\":\"")
                    .append(declared.get(i).access().wire()).append("\"}");
        }
        return b.append(']').toString();
    }
}
