package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.core.internal.fs.FilesComponent;
import pi.host.core.internal.paths.PathException;
import pi.host.core.internal.paths.PathResolver;
import pi.host.core.internal.provenance.EditFailureCounts;
import pi.host.core.internal.provenance.ProvenanceStore;
import pi.host.core.internal.review.ReviewStore;
import pi.host.spi.PinnedFiles;
import pi.host.testkit.FakeToolCall;

/**
 * The file tools wired to the host's real provenance, review store, guard and path resolver, with a
 * workspace, a scratch dir and a data dir under a temporary folder; calls are built as the pipeline
 * builds them (the declared paths resolved by {@link PathResolver}; an outside one as if its card was
 * allowed).
 */
final class Fixture {

    final Path ws;
    final Path scratch;
    final Path data;
    final ProvenanceStore provenance = new ProvenanceStore();
    final EditFailureCounts guard = new EditFailureCounts();
    /** The host's race-free file edge, as the tools get it (its journal under the data dir). */
    final PinnedFiles files;
    final ReviewStore review;
    final ReadTool read;
    final WriteTool write;
    final EditTool edit;
    String session = "s_test";
    String turn = "t1";
    /** The directories a walk must stay out of, as the pipeline would hand them to the call. */
    List<Path> excluded = List.of();
    /** Review records of the last call, as the pipeline would put them on the result. */
    List<Map<String, Object>> lastReview = List.of();

    Fixture(Path tmp) throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws")).toRealPath();
        data = Files.createDirectories(tmp.resolve("data")).toRealPath();
        scratch = Files.createDirectories(data.resolve("scratch").resolve(session));
        files = FilesComponent.load(data.resolve(FilesComponent.JOURNAL_FOLDER));
        review = ReviewStore.at(data.resolve("snapshots"), files);
        read = new ReadTool(provenance, files);
        write = new WriteTool(provenance, new Recording(), files);
        edit = new EditTool(provenance, new Recording(), guard, files);
    }

    /** Captures the records the store returns, standing in for the pipeline's review array. */
    private final class Recording implements pi.host.spi.ReviewSnapshots {
        @Override
        public List<Map<String, Object>> record(ToolCall call, List<Change> changes) throws IOException {
            lastReview = review.record(call, changes);
            return lastReview;
        }
    }

    Path file(String rel, String content) throws IOException {
        return bytes(rel, content.getBytes(StandardCharsets.UTF_8));
    }

    Path bytes(String rel, byte[] content) throws IOException {
        Path p = ws.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
        return p;
    }

    String content(String rel) throws IOException {
        return Files.readString(ws.resolve(rel));
    }

    ToolResult read(String path, Object... kv) throws Exception {
        return run(read, path, PathKind.EXISTING_FILE, kv);
    }

    ToolResult write(String path, String content) throws Exception {
        return run(write, path, PathKind.WRITABLE_FILE, "content", content);
    }

    ToolResult edit(String path, String tag, String ops) throws Exception {
        return run(edit, path, PathKind.WRITABLE_FILE, "tag", tag, "ops", ops);
    }

    /** A write whose path is resolved, then {@code between} runs (an attacker's swap), then the tool runs. */
    ToolResult runAfter(String raw, Swap between, Object... kv) throws Exception {
        Map<String, Object> args = new HashMap<>();
        args.put("path", raw);
        for (int i = 0; i < kv.length; i += 2) {
            args.put((String) kv[i], kv[i + 1]);
        }
        ResolvedPath path = new PathResolver(ws, scratch).resolve(raw, PathKind.WRITABLE_FILE).path();
        between.run();
        return write.execute(new Call(args, List.of(path)));
    }

    /** Runs {@code tool} on a path resolved (and re-checked) by the caller, as the pipeline hands it over. */
    ToolResult execute(pi.host.api.ToolProvider tool, ResolvedPath path, Object... kv) throws Exception {
        Map<String, Object> args = new HashMap<>();
        args.put("path", path.display());
        for (int i = 0; i < kv.length; i += 2) {
            args.put((String) kv[i], kv[i + 1]);
        }
        return tool.execute(new Call(args, List.of(path)));
    }

    interface Swap {
        void run() throws Exception;
    }

    /** The tag in the {@code [path#TAG]} header of a result. */
    static String tag(ToolResult r) {
        String t = r.text().get(0);
        int hash = t.indexOf('#');
        return t.substring(hash + 1, hash + 5);
    }

    ToolResult run(pi.host.api.ToolProvider tool, String raw, PathKind kind, Object... kv) throws Exception {
        lastReview = List.of();
        Map<String, Object> args = new HashMap<>();
        args.put("path", raw);
        for (int i = 0; i < kv.length; i += 2) {
            args.put((String) kv[i], kv[i + 1]);
        }
        List<ResolvedPath> paths = new java.util.ArrayList<>();
        try {
            PathResolver resolver = new PathResolver(ws, scratch);
            if (tool instanceof pi.host.spi.PreparedTool) {
                for (pi.host.spi.DeclaredPath d : ((pi.host.spi.PreparedTool) tool).prepare(args).paths()) {
                    paths.add(resolver.resolve(d.raw(), d.kind()).path());
                }
            } else {
                paths.add(resolver.resolve(raw, kind).path());
            }
        } catch (PathException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        return tool.execute(new Call(args, paths));
    }

    /** A call without arguments or path, for code that only needs a call's session and cancellation. */
    ToolCall bareCall() {
        return new Call(Map.of(), List.of());
    }

    /** The kit's call with this fixture's session, turn and folders, the resolved paths, and the walk limits. */
    private final class Call extends FakeToolCall implements pi.host.spi.WalkLimits, pi.host.spi.PreparedCall {
        private final List<ResolvedPath> paths;

        Call(Map<String, Object> args, List<ResolvedPath> paths) {
            super(ws, args, Duration.ofSeconds(60));
            toolName("test").ids(session, turn).scratchDir(scratch);
            paths.stream().findFirst().ifPresent(this::path);
            this.paths = paths;
        }

        @Override public List<ResolvedPath> paths() { return paths; }
        @Override public List<Path> excludedDirectories() { return excluded; }
    }
}
