package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
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
import pi.host.spi.Provenance;

/**
 * {@code Grep}: lines matching a regex in one file or a tree. rg finds the matching lines when it is
 * available (falling back to java.util.regex when it is missing or fails, e.g. on a pattern its
 * regex engine rejects); either way the tool itself reads each file with matches once, tags it and
 * renders the same output, so the contract does not depend on the engine. Files are taken in path
 * order; output is bounded by {@link #MAX_MATCHES} matching lines and {@link #MAX_BYTES}.
 */
@Component(service = ToolProvider.class)
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
    /** The rg to run; null until the first call locates it. */
    private volatile Optional<Path> rg;

    @Activate
    public GrepTool(@Reference Provenance provenance) {
        this.provenance = provenance;
        this.rg = null; // located on the first call, not while the component activates
    }

    GrepTool(Provenance provenance, Optional<Path> rg) {
        this.provenance = provenance;
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
        String mode = a.get("outputMode") instanceof String s ? s : "content";
        if (!List.of("content", "files", "count").contains(mode)) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "outputMode must be content, files or count");
        }
        int context = a.get("context") instanceof Number n ? n.intValue() : 0;
        if (context < 0 || context > MAX_CONTEXT) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "context must be 0 to " + MAX_CONTEXT);
        }
        boolean ci = Boolean.TRUE.equals(a.get("caseInsensitive"));
        boolean single = Files.isRegularFile(base.absolute(), LinkOption.NOFOLLOW_LINKS);

        // relative path (to the search dir, or the file name for a single file) -> matching line numbers
        TreeMap<String, BitSet> hits = null;
        boolean usedRg = false;
        Optional<Path> rg = rg();
        if (rg.isPresent()) {
            hits = viaRg(call, base, single, pattern, include, ci);
            usedRg = hits != null;
        }
        Pattern regex = null;
        if (hits == null) {
            try {
                regex = Pattern.compile(pattern, ci ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
            } catch (PatternSyntaxException e) {
                return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "invalid regex: " + e.getDescription()
                        + " near index " + e.getIndex() + " of " + pattern);
            }
            hits = new TreeMap<>();
            List<String> files;
            if (single) {
                files = List.of(base.absolute().getFileName().toString());
            } else {
                Pattern inc = include == null ? null : Globs.name(include);
                Predicate<String> keep = rel -> inc == null
                        || inc.matcher(rel.substring(rel.lastIndexOf('/') + 1)).matches();
                files = Walker.files(GlobTool.top(call, base), base.absolute(), keep, Integer.MAX_VALUE,
                        call::isCancelled);
            }
            for (String f : files) {
                hits.put(f, null); // searched while rendering, in path order
            }
        }
        if (call.isCancelled()) {
            return ToolResult.error(ErrorCode.TOOL_ABORTED, "aborted");
        }
        Path dir = single ? base.absolute().getParent() : base.absolute();
        StringBuilder out = new StringBuilder();
        int matches = 0;
        int filesWithMatches = 0;
        String cut = null;
        for (Map.Entry<String, BitSet> e : hits.entrySet()) {
            if (call.isCancelled()) {
                return ToolResult.error(ErrorCode.TOOL_ABORTED, "aborted");
            }
            Path file = dir.resolve(e.getKey());
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException ex) {
                continue;
            }
            if (binary(bytes)) {
                continue;
            }
            List<String> lines = lines(bytes);
            BitSet m = e.getValue();
            if (m == null) {
                m = new BitSet();
                for (int i = 0; i < lines.size(); i++) {
                    if (regex.matcher(lines.get(i)).find()) {
                        m.set(i + 1);
                    }
                }
            }
            if (m.isEmpty()) {
                continue;
            }
            String shown = single ? base.display() : GlobTool.display(base, e.getKey());
            if (filesWithMatches >= MAX_FILES) {
                cut = "more than " + MAX_FILES + " files match";
                break;
            }
            // the matching-line budget bounds shown lines; files and count mode show one line per file
            if (mode.equals("content") && matches >= MAX_MATCHES) {
                cut = "more than " + MAX_MATCHES + " matching lines";
                break;
            }
            filesWithMatches++;
            if (mode.equals("files")) {
                out.append(shown).append('\n');
                matches += m.cardinality();
                continue;
            }
            if (mode.equals("count")) {
                out.append(shown).append(':').append(m.cardinality()).append('\n');
                matches += m.cardinality();
                continue;
            }
            int room = MAX_MATCHES - matches;
            if (m.cardinality() > room) {
                BitSet kept = new BitSet();
                for (int i = m.nextSetBit(0); i >= 0 && kept.cardinality() < room; i = m.nextSetBit(i + 1)) {
                    kept.set(i);
                }
                m = kept;
                cut = "more than " + MAX_MATCHES + " matching lines";
            }
            byte[] digest = Tags.digest(bytes);
            BitSet show = new BitSet();
            for (int i = m.nextSetBit(0); i >= 0; i = m.nextSetBit(i + 1)) {
                show.set(Math.max(1, i - context), Math.min(lines.size(), i + context) + 1);
            }
            StringBuilder block = new StringBuilder(Tags.header(shown, digest)).append('\n');
            int prev = -1;
            for (int i = show.nextSetBit(0); i >= 0; i = show.nextSetBit(i + 1)) {
                if (prev >= 0 && i > prev + 1) {
                    block.append("--\n");
                }
                String text = lines.get(i - 1);
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
            provenance.displayed(call.sessionId(), file.toAbsolutePath().normalize(), digest, show);
            if (cut != null) {
                break;
            }
        }
        if (filesWithMatches == 0) {
            out.append("(no matches for ").append(pattern).append(")\n");
        }
        if (cut != null) {
            out.append("[truncated: ").append(cut).append("; narrow the pattern, include or path]\n");
        }
        return ToolResult.builder().text(out.toString()).truncated(cut != null).detail("matches", matches)
                .detail("files", filesWithMatches).detail("root", base.root().wire())
                .detail("engine", usedRg ? "rg" : "java").build();
    }

    /** The matching lines rg reports, per path relative to the searched dir; null when rg failed. */
    private TreeMap<String, BitSet> viaRg(ToolCall call, ResolvedPath base, boolean single, String pattern,
            String include, boolean ci) throws IOException {
        List<String> args = new ArrayList<>(List.of("--line-number", "--with-filename", "--null", "--no-heading"));
        if (ci) {
            args.add("--ignore-case");
        } else {
            args.add("--case-sensitive");
        }
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
        TreeMap<String, BitSet> hits = new TreeMap<>();
        int[] collected = {0};
        int rc = Rg.run(rg.get(), args, cwd, call, (byte) '\n', rec -> {
            if (collected[0] >= MAX_COLLECTED) {
                return;
            }
            int nul = indexOf(rec, (byte) 0);
            if (nul < 0) {
                return;
            }
            int n = 0;
            int i = nul + 1;
            while (i < rec.length && rec[i] >= '0' && rec[i] <= '9') {
                n = n * 10 + (rec[i] - '0');
                i++;
            }
            if (i == nul + 1 || i >= rec.length || rec[i] != ':') {
                return;
            }
            String rel = new String(rec, 0, nul, StandardCharsets.UTF_8).replace('\\', '/');
            if (rel.startsWith("./")) {
                rel = rel.substring(2);
            }
            if (inc != null && !inc.matcher(rel.substring(rel.lastIndexOf('/') + 1)).matches()) {
                return; // the same base-name glob as the fallback, whatever rg's type matching did
            }
            hits.computeIfAbsent(rel, k -> new BitSet()).set(n);
            collected[0]++;
        });
        if (rc == 0 || rc == 1 || rc == 2 && !hits.isEmpty()) {
            return hits;
        }
        return null;
    }

    private static int indexOf(byte[] b, byte v) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }

    static boolean binary(byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, SNIFF_BYTES); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** The lines of a file (1-based in results), without their terminators; a leading BOM dropped. */
    static List<String> lines(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        if (s.startsWith("\uFEFF")) {
            s = s.substring(1);
        }
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\n') {
                int end = i > start && s.charAt(i - 1) == '\r' ? i - 1 : i;
                lines.add(s.substring(start, end));
                start = i + 1;
            }
        }
        if (start < s.length()) {
            lines.add(s.substring(start));
        }
        return lines;
    }

}
