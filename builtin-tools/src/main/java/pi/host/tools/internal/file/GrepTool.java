package pi.host.tools.internal.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.Builtin;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFiles;
import pi.host.spi.Provenance;
import pi.host.spi.ToolKind;

/**
 * {@code Grep}: lines matching a regex in one file or a tree. rg finds the matches when it is
 * available (falling back to the in-process {@link Searcher} when it is missing or fails, e.g. on a
 * pattern its regex engine rejects). Files mode asks rg for the file list only ({@code -l}) and
 * count mode for the counts; content mode reads each shown file once more to tag it and render its
 * lines, so the contract does not depend on the engine; that read, whose bytes are shown and tagged,
 * is below the search's pinned root with no link followed ({@link PinnedFiles}), so a file swapped
 * for a link after the search is skipped, never read through. Files are taken in path order; output is
 * bounded by {@link #MAX_MATCHES} matching lines (content mode), {@link #MAX_FILES} files and
 * {@link #MAX_BYTES}.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.READ, aliases = "pattern=query", parallel = true)
@Tool(name = "Grep", risk = Risk.LOW, pathArg = "path", pathKind = PathKind.FILE_OR_DIRECTORY, timeoutMs = 60_000)
public final class GrepTool implements ToolProvider {

    static final int MAX_MATCHES = 500;
    static final int MAX_BYTES = 200 * 1024;
    static final int MAX_FILES = 1000;
    static final int MAX_LINE_CHARS = 2000;
    static final int MAX_CONTEXT = 20;
    /** Matching lines collected from rg before it is stopped. */
    static final int MAX_COLLECTED = 100_000;
    static final int SNIFF_BYTES = 8192;

    private final Provenance provenance;
    private final PinnedFiles files;
    /** The rg to run; null until the first call locates it. */
    private volatile Optional<Path> rg;

    @Activate
    public GrepTool(@Reference Provenance provenance, @Reference PinnedFiles files) {
        this.provenance = provenance;
        this.files = files;
        this.rg = null; // located on the first call, not while the component activates
    }

    GrepTool(Provenance provenance, PinnedFiles files, Optional<Path> rg) {
        this.provenance = provenance;
        this.files = files;
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
        return "Search file contents with a regular expression (ripgrep syntax; java.util.regex when rg is"
                + " unavailable) in a file or under a directory (the workspace root by default). Honours"
                + " .gitignore like ripgrep. outputMode: content (default; matching lines with line numbers under a"
                + " [path#TAG] header, usable by Edit), files (paths only) or count (matching lines per file)."
                + " include filters base names with a glob (e.g. *.java). At most " + MAX_MATCHES
                + " matching lines in content mode, and " + MAX_FILES + " files.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"pattern\":{\"type\":\"string\",\"description\":\"Regular expression\"},"
                + "\"query\":{\"type\":\"string\",\"description\":\"Alias of pattern\"},"
                + "\"path\":{\"type\":\"string\",\"description\":\"File or directory (default: workspace root)\"},"
                + "\"include\":{\"type\":\"string\",\"description\":\"Glob on base names, e.g. *.java\"},"
                + "\"outputMode\":{\"type\":\"string\",\"enum\":[\"content\",\"files\",\"count\"]},"
                + "\"context\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":" + MAX_CONTEXT + "},"
                + "\"caseInsensitive\":{\"type\":\"boolean\"}},\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        ResolvedPath base = call.path().orElseThrow();
        Map<String, Object> a = call.arguments();
        Object p = a.get("pattern");
        if (!(p instanceof String) || ((String) p).isEmpty()) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "Grep needs a non-empty pattern");
        }
        String pattern = (String) p;
        String include = a.get("include") instanceof String s && !s.isEmpty() ? s : null;
        String modeArg = a.get("outputMode") instanceof String s ? s : "content";
        if (!List.of("content", "files", "count").contains(modeArg)) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "outputMode must be content, files or count");
        }
        Mode mode = Mode.valueOf(modeArg.toUpperCase(Locale.ROOT));
        int context = a.get("context") instanceof Number n ? n.intValue() : 0;
        if (context < 0 || context > MAX_CONTEXT) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "context must be 0 to " + MAX_CONTEXT);
        }
        boolean ci = Boolean.TRUE.equals(a.get("caseInsensitive"));
        boolean single = Files.isRegularFile(base.absolute(), LinkOption.NOFOLLOW_LINKS);

        // relative path (to the search dir, or the file name for a single file) -> what matched there
        TreeMap<String, Hit> hits = null;
        // spec §4: a directly named file is still filtered by include on its base name (rg would search
        // a named file whatever its filters say, so the filter is applied here for both engines)
        boolean excluded = single && include != null
                && !Globs.name(include).matcher(base.absolute().getFileName().toString()).matches();
        Optional<Path> rg = rg();
        if (rg.isPresent() && !excluded) {
            hits = viaRg(call, base, single, pattern, include, ci, mode);
        }
        boolean usedRg = hits != null;
        Searcher searcher = null;
        if (hits == null) {
            Pattern regex;
            try {
                regex = Pattern.compile(pattern, ci ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
            } catch (PatternSyntaxException e) {
                return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "invalid regex: " + e.getDescription()
                        + " near index " + e.getIndex() + " of " + pattern);
            }
            searcher = new Searcher(regex, Needle.of(pattern, ci));
            hits = excluded ? new TreeMap<>() : inProcess(call, base, single, include, mode, searcher);
        }
        if (call.isCancelled()) {
            return ToolResult.error(ErrorCode.TOOL_ABORTED, "aborted");
        }
        Path dir = single ? base.absolute().getParent() : base.absolute();
        StringBuilder out = new StringBuilder();
        int matches = 0;
        int filesWithMatches = 0;
        String cut = null;
        PinnedDir root = mode == Mode.CONTENT && !hits.isEmpty() ? files.root(call, base) : null;
        ShownFiles shownFiles = root == null ? null : new ShownFiles(root, belowRoot(root, dir, hits), call::isCancelled);
        try {
            for (Map.Entry<String, Hit> e : hits.entrySet()) {
                if (call.isCancelled()) {
                    return ToolResult.error(ErrorCode.TOOL_ABORTED, "aborted");
                }
                String shown = single ? base.display() : GlobTool.display(base, e.getKey());
                if (filesWithMatches >= MAX_FILES) {
                    cut = "more than " + MAX_FILES + " files match";
                    break;
                }
                if (mode != Mode.CONTENT) {
                    // files and count mode show no lines: nothing to read, tag or record
                    out.append(shown);
                    if (mode == Mode.COUNT) {
                        out.append(':').append(e.getValue().count());
                    }
                    out.append('\n');
                    filesWithMatches++;
                    matches += e.getValue().count();
                    continue;
                }
                Path file = dir.resolve(e.getKey()).normalize();
                ShownFiles.Shown read = shownFiles.next();
                if (read == null) {
                    continue; // gone, no longer the file the search saw (a link now), or binary: not shown
                }
                byte[] bytes = read.bytes();
                LineIndex lines = read.lines();
                BitSet m = e.getValue().lines();
                if (m == null) {
                    // the in-process engine matches again on the bytes it tags, so lines and tag agree
                    m = new BitSet();
                    searcher.scan(bytes, bytes.length, false, m);
                } else if (m.length() > lines.count() + 1) {
                    m = m.get(0, lines.count() + 1); // the file shrank since rg read it
                }
                if (m.isEmpty()) {
                    continue;
                }
                // the matching-line budget bounds shown lines
                if (matches >= MAX_MATCHES) {
                    cut = "more than " + MAX_MATCHES + " matching lines";
                    break;
                }
                filesWithMatches++;
                int room = MAX_MATCHES - matches;
                if (m.cardinality() > room) {
                    BitSet kept = new BitSet();
                    for (int i = m.nextSetBit(0); i >= 0 && kept.cardinality() < room; i = m.nextSetBit(i + 1)) {
                        kept.set(i);
                    }
                    m = kept;
                    cut = "more than " + MAX_MATCHES + " matching lines";
                }
                byte[] digest = read.digest();
                BitSet show = new BitSet();
                for (int i = m.nextSetBit(0); i >= 0; i = m.nextSetBit(i + 1)) {
                    show.set(Math.max(1, i - context), Math.min(lines.count(), i + context) + 1);
                }
                StringBuilder block = new StringBuilder(Tags.header(shown, digest)).append('\n');
                int prev = -1;
                for (int i = show.nextSetBit(0); i >= 0; i = show.nextSetBit(i + 1)) {
                    if (prev >= 0 && i > prev + 1) {
                        block.append("--\n");
                    }
                    String text = lines.line(i);
                    if (text.length() > MAX_LINE_CHARS) {
                        text = text.substring(0, MAX_LINE_CHARS) + " [line cut at " + MAX_LINE_CHARS + " characters]";
                    }
                    block.append(i).append(m.get(i) ? ':' : '-').append(text).append('\n');
                    prev = i;
                }
                if (out.length() + block.length() > MAX_BYTES) {
                    cut = "output over " + MAX_BYTES / 1024 + " KB";
                    break;
                }
                out.append(block);
                matches += m.cardinality();
                provenance.displayed(call.sessionId(), file, digest, show);
                if (cut != null) {
                    break;
                }
            }
        } finally {
            if (root != null) {
                shownFiles.close(); // its reads end before the root they read below is closed
                root.close();
            }
        }
        if (filesWithMatches == 0) {
            out.append("(no matches for ").append(pattern).append(")\n");
        }
        if (cut != null) {
            out.append("[truncated: ").append(cut).append("; narrow the pattern, include or path]\n");
        }
        ToolResult.Builder r = ToolResult.builder().text(out.toString()).truncated(cut != null);
        if (mode != Mode.FILES) {
            r.detail("matches", matches); // files mode stops reading a file at its first match
        }
        return r.detail("files", filesWithMatches).detail("root", base.root().wire())
                .detail("engine", usedRg ? "rg" : "java").build();
    }

    enum Mode { CONTENT, FILES, COUNT }

    /** Each hit's path below {@code root}, in the hits' order; null for one that is not below it (not shown). */
    private static List<String> belowRoot(PinnedDir root, Path dir, TreeMap<String, Hit> hits) {
        List<String> out = new ArrayList<>(hits.size());
        for (String rel : hits.keySet()) {
            String below;
            try {
                below = root.relative(dir.resolve(rel).normalize());
            } catch (IllegalArgumentException e) {
                below = null;
            }
            out.add(below);
        }
        return out;
    }

    /**
     * What matched in one file: the matching line numbers (rg in content mode), else their count
     * (files mode: at least 1), the lines being found again when the file is shown.
     */
    record Hit(BitSet lines, int count) {
        Hit(int count) {
            this(null, count);
        }
    }

    /** The in-process engine: the walk (or the one file), then the {@link Searcher} in path order. */
    private static TreeMap<String, Hit> inProcess(ToolCall call, ResolvedPath base, boolean single, String include,
            Mode mode, Searcher searcher) throws IOException {
        List<Walker.Found> files;
        if (single) {
            files = List.of(new Walker.Found(base.absolute().getFileName().toString(), -1));
        } else {
            Pattern inc = include == null ? null : Globs.name(include);
            Predicate<String> keep = rel -> inc == null
                    || inc.matcher(rel.substring(rel.lastIndexOf('/') + 1)).matches();
            files = new ArrayList<>(Walker.walk(GlobTool.top(call, base), base.absolute(),
                    GlobTool.skipped(call, base.absolute()), keep, Integer.MAX_VALUE,
                    call::isCancelled));
            files.sort(Comparator.comparing(Walker.Found::rel));
        }
        Path dir = single ? base.absolute().getParent() : base.absolute();
        TreeMap<String, Hit> hits = new TreeMap<>();
        searcher.search(dir, files, mode == Mode.FILES, MAX_FILES, mode == Mode.CONTENT ? MAX_MATCHES
                : Integer.MAX_VALUE, call::isCancelled).forEach((f, n) -> hits.put(f, new Hit(n)));
        return hits;
    }

    /** What rg reports, per path relative to the searched dir; null when rg failed. */
    private TreeMap<String, Hit> viaRg(ToolCall call, ResolvedPath base, boolean single, String pattern,
            String include, boolean ci, Mode mode) throws IOException {
        List<String> args = new ArrayList<>(List.of("--null"));
        switch (mode) {
            case FILES -> args.add("--files-with-matches"); // no per-line output: rg stops a file at a match
            case COUNT -> args.addAll(List.of("--count", "--with-filename"));
            default -> args.addAll(List.of("--line-number", "--with-filename", "--no-heading"));
        }
        args.add(ci ? "--ignore-case" : "--case-sensitive");
        if (include != null && !single) {
            // a file type, not --glob: rg's globs override the ignore files; types do not
            args.add("--type-add");
            args.add("piinclude:" + include);
            args.add("--type");
            args.add("piinclude");
        }
        args.add("--regexp");
        args.add(pattern);
        Path cwd = base.absolute();
        if (single) {
            cwd = base.absolute().getParent();
            args.add("--");
            args.add(base.absolute().getFileName().toString());
        }
        Pattern inc = include == null || single ? null : Globs.name(include);
        TreeMap<String, Hit> hits = new TreeMap<>();
        int[] collected = {0};
        // rg prints a file's lines together: the previous record's path and line set are reused
        byte[][] lastPath = {new byte[0]};
        BitSet[] lastLines = {null};
        List<String> rgArgs = single ? args : Rg.skipping(args, GlobTool.skipped(call, base.absolute()));
        int rc = Rg.run(rg.get(), rgArgs, cwd, call, mode == Mode.FILES ? (byte) 0 : (byte) '\n', (buf, off, len) -> {
            int nul = mode == Mode.FILES ? off + len : indexOf(buf, off, off + len, (byte) 0);
            if (nul < 0) {
                return true;
            }
            int n = 0;
            int i = nul + 1;
            if (mode != Mode.FILES) {
                while (i < off + len && buf[i] >= '0' && buf[i] <= '9') {
                    n = n * 10 + (buf[i] - '0');
                    i++;
                }
                if (i == nul + 1 || mode == Mode.CONTENT && (i >= off + len || buf[i] != ':')) {
                    return true;
                }
            }
            if (mode == Mode.CONTENT && lastLines[0] != null
                    && Arrays.equals(buf, off, nul, lastPath[0], 0, lastPath[0].length)) {
                lastLines[0].set(n);
                return ++collected[0] < MAX_COLLECTED;
            }
            String rel = new String(buf, off, nul - off, StandardCharsets.UTF_8).replace('\\', '/');
            if (rel.startsWith("./")) {
                rel = rel.substring(2);
            }
            if (inc != null && !inc.matcher(rel.substring(rel.lastIndexOf('/') + 1)).matches()) {
                return true; // the same base-name glob as the fallback, whatever rg's type matching did
            }
            if (mode == Mode.CONTENT) {
                BitSet lines = hits.computeIfAbsent(rel, k -> new Hit(new BitSet(), 0)).lines();
                lines.set(n);
                lastPath[0] = Arrays.copyOfRange(buf, off, nul);
                lastLines[0] = lines;
            } else {
                hits.put(rel, new Hit(mode == Mode.COUNT ? n : 1));
            }
            return ++collected[0] < MAX_COLLECTED;
        });
        if (rc == 0 || rc == 1 || rc == 2 && !hits.isEmpty()) {
            if (single && mode != Mode.CONTENT && !hits.isEmpty() && binaryStart(base.absolute())) {
                hits.clear(); // rg searches a file named explicitly even when binary; the tool does not
            }
            return hits;
        }
        return null;
    }

    private static int indexOf(byte[] b, int from, int to, byte v) {
        for (int i = from; i < to; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether a file has a NUL in its first {@link #SNIFF_BYTES}. Only asked of a single file: in a
     * directory rg itself skips such files (it stops at a NUL in its first, larger, buffer).
     */
    private static boolean binaryStart(Path file) {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] head = in.readNBytes(SNIFF_BYTES);
            return Searcher.binary(head, head.length);
        } catch (IOException e) {
            return true;
        }
    }
}
