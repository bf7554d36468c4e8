package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;
import pi.host.spi.WalkLimits;

/**
 * {@code Glob}: the files under a directory whose path matches a glob, with ripgrep's filters
 * (.gitignore/.ignore, hidden entries skipped, symlinks never followed). {@code rg --files --glob}
 * when rg is available, else the in-process {@link Walker}. Paths are sorted by their UTF-16 string
 * order, {@code /}-separated, workspace-relative (absolute for scratch and external roots); at most
 * {@link #MAX_RESULTS}.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.READ, aliases = "pattern=query", parallel = true)
@Tool(name = "Glob", risk = Risk.LOW, pathArg = "path", pathKind = PathKind.DIRECTORY, timeoutMs = 60_000)
public final class GlobTool implements ToolProvider {

    static final int MAX_RESULTS = 1000;
    /** Paths kept before sorting; beyond it the listing is cut (and says so). */
    static final int MAX_COLLECTED = 200_000;

    /** The rg to run; null until the first call locates it. */
    private volatile Optional<Path> rg;

    @Activate
    public GlobTool() {
        this.rg = null; // located on the first call, not while the component activates
    }

    /** With an explicit rg (a missing file forces the in-process walk). */
    GlobTool(Optional<Path> rg) {
        this.rg = rg;
    }

    private Optional<Path> rg() {
        Optional<Path> r = rg;
        if (r == null) {
            r = Rg.locate();
            rg = r;
        }
        return r;
    }

    @Override
    public String description() {
        return "List files whose path matches a glob (e.g. **/*.java, src/**/*.{ts,tsx}, *Test.java) under a"
                + " directory (the workspace root by default). Honours .gitignore/.ignore like ripgrep, skips hidden"
                + " files, never follows symlinks. Sorted by path, at most " + MAX_RESULTS + " results.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"pattern\":{\"type\":\"string\",\"description\":\"Glob; without a '/' it matches base names at"
                + " any depth\"},"
                + "\"query\":{\"type\":\"string\",\"description\":\"Alias of pattern\"},"
                + "\"path\":{\"type\":\"string\",\"description\":\"Directory to search under (default: workspace"
                + " root)\"}},\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        ResolvedPath dir = call.path().orElseThrow();
        Object p = call.arguments().get("pattern");
        if (!(p instanceof String) || ((String) p).isEmpty()) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "Glob needs a non-empty pattern");
        }
        String pattern = (String) p;
        List<String> found = null;
        boolean usedRg = false;
        Predicate<String> keep = matcher(pattern);
        Set<String> skipped = skipped(call, dir.absolute());
        Optional<Path> rg = rg();
        if (rg.isPresent()) {
            // not rg's --glob: its globs override the ignore files; the pattern is applied here instead
            List<String> out = new ArrayList<>();
            int rc = Rg.run(rg.get(), Rg.skipping(List.of("--files"), skipped), dir.absolute(), call, (byte) '\n',
                    (buf, off, len) -> {
                String rel = new String(buf, off, len, StandardCharsets.UTF_8).replace('\\', '/');
                if (keep.test(rel)) {
                    out.add(rel);
                }
                return out.size() < MAX_COLLECTED;
            });
            if (rc == 0 || rc == 1) {
                found = out;
                usedRg = true;
            }
        }
        if (found == null) {
            found = Walker.files(top(call, dir), dir.absolute(), skipped, keep, MAX_COLLECTED, call::isCancelled);
        }
        if (call.isCancelled()) {
            return ToolResult.error(ErrorCode.TOOL_ABORTED, "aborted");
        }
        found.sort(null);
        boolean truncated = found.size() > MAX_RESULTS;
        StringBuilder text = new StringBuilder();
        int shown = Math.min(found.size(), MAX_RESULTS);
        for (int i = 0; i < shown; i++) {
            text.append(display(dir, found.get(i))).append('\n');
        }
        if (found.isEmpty()) {
            text.append("(no files match ").append(pattern).append(")\n");
        }
        if (truncated) {
            text.append("[truncated: showing ").append(MAX_RESULTS).append(" of ")
                    .append(found.size() >= MAX_COLLECTED ? "more than " + MAX_COLLECTED : found.size())
                    .append(" files; narrow the pattern or the path]\n");
        }
        return ToolResult.builder().text(text.toString()).truncated(truncated).detail("count", shown)
                .detail("root", dir.root().wire()).detail("engine", usedRg ? "rg" : "java").build();
    }

    /** rg's --glob on a path relative to the searched directory; a leading '!' excludes. */
    static Predicate<String> matcher(String pattern) {
        boolean negate = pattern.startsWith("!");
        Pattern re = Globs.path(negate ? pattern.substring(1) : pattern);
        return rel -> re.matcher(rel).matches() != negate;
    }

    /**
     * The directories below {@code root} a walk must stay out of (the host's own state, issue 13.2), as
     * paths relative to {@code root} with {@code /} separators.
     */
    static Set<String> skipped(ToolCall call, Path root) {
        List<Path> excluded = WalkLimits.of(call);
        if (excluded.isEmpty()) {
            return Set.of();
        }
        Set<String> out = new java.util.LinkedHashSet<>();
        for (Path e : excluded) {
            if (e.startsWith(root) && !e.equals(root)) {
                StringBuilder rel = new StringBuilder();
                root.relativize(e).forEach(n -> rel.append(rel.length() == 0 ? "" : "/").append(n));
                out.add(rel.toString());
            }
        }
        return out;
    }

    /** The directory whose ancestors' ignore files no longer count. */
    static Path top(ToolCall call, ResolvedPath dir) {
        if (dir.root() == ResolvedPath.Root.WORKSPACE) {
            try {
                return call.workspaceRoot().toRealPath();
            } catch (IOException e) {
                return dir.absolute();
            }
        }
        return dir.absolute();
    }

    /** A found path (relative to {@code dir}) as results show it. */
    static String display(ResolvedPath dir, String rel) {
        if (dir.root() == ResolvedPath.Root.WORKSPACE) {
            return dir.display().equals(".") ? rel : dir.display() + "/" + rel;
        }
        String abs = dir.absolute().toString().replace('\\', '/');
        return abs.endsWith("/") ? abs + rel : abs + "/" + rel;
    }
}
