package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
import pi.host.spi.AtomicWrite;
import pi.host.spi.Builtin;
import pi.host.spi.DeclaredPath;
import pi.host.spi.EditGuard;
import pi.host.spi.FileInfo;
import pi.host.spi.Invocation;
import pi.host.spi.PathChangedException;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.PinnedFiles;
import pi.host.spi.PreparedCall;
import pi.host.spi.PreparedTool;
import pi.host.spi.Provenance;
import pi.host.spi.ReviewSnapshots;
import pi.host.spi.ToolKind;

/**
 * {@code Edit}: line-anchored ops against a verified tag (EDIT-CONTRACT.md). Checks, in order: the
 * ops parse and their ranges fit the file; the live file is the content behind the tag in this
 * session's provenance; every anchored line was displayed; then all ops apply at once, atomically.
 * Every failure counts toward the loop guard; the third on a path in a turn (or delegate run) is
 * {@code EDIT_RETRY_LIMIT} with {@code terminate}. The file is read, replaced, moved and removed
 * below its root pinned by its descriptor, no link followed ({@link PinnedFiles}), the MV
 * destination too: a folder swapped for a link after the host's check cannot redirect any of it.
 */
@Component(service = ToolProvider.class)
@Tool(name = "Edit", risk = Risk.HIGH, mutates = true, timeoutMs = 60_000)
@Builtin(kind = ToolKind.EDIT, aliases = "path=file_path")
public final class EditTool implements PreparedTool {

    /** Most unseen lines one EDIT_LINES_UNSEEN shows; a larger gap is a partial reveal, which counts. */
    static final int MAX_REVEAL = 400;
    /** Most changed lines a success shows (and so marks displayed). */
    static final int MAX_SHOWN = 2000;
    /** Files larger than this are not edited in memory. */
    static final long MAX_EDIT_BYTES = 256L * 1024 * 1024;
    private static final String EXISTS = "the destination exists; MV never overwrites";

    private final Provenance provenance;
    private final ReviewSnapshots review;
    private final EditGuard guard;

    private final PinnedFiles files;

    @Activate
    public EditTool(@Reference Provenance provenance, @Reference ReviewSnapshots review, @Reference EditGuard guard,
            @Reference PinnedFiles files) {
        this.provenance = provenance;
        this.review = review;
        this.guard = guard;
        this.files = files;
    }

    /**
     * Phase one: the file, and for {@code MV DEST} the destination too, so the host resolves, decides,
     * asks, re-checks and locks both (a destination outside the roots gets its own card). Ops that do
     * not parse declare the file alone; the parse error is reported by {@link #execute}, where the loop
     * guard counts it.
     */
    @Override
    public Invocation prepare(Map<String, Object> arguments) {
        String path = (String) arguments.get("path");
        EditScript script;
        try {
            script = EditScript.parse((String) arguments.get("ops"));
        } catch (EditScript.Failure f) {
            script = null;
        }
        if (script != null && script.removes()) {
            return Invocation.of("Edit: remove " + path, List.of(new DeclaredPath(path, PathKind.WRITABLE_FILE,
                    DeclaredPath.Access.DELETE)));
        }
        EditScript.Op mv = script == null ? null : script.move();
        if (mv != null) {
            return Invocation.of("Edit: move " + path + " to " + mv.dest(), List.of(
                    new DeclaredPath(path, PathKind.WRITABLE_FILE, DeclaredPath.Access.DELETE),
                    new DeclaredPath(mv.dest(), PathKind.WRITABLE_FILE, DeclaredPath.Access.CREATE)));
        }
        return Invocation.of("Edit " + path, List.of(new DeclaredPath(path, PathKind.WRITABLE_FILE,
                DeclaredPath.Access.WRITE)));
    }

    @Override
    public String description() {
        return "Edit a file by line numbers against the tag from the Read, Grep or Write that last showed it."
                + " ops lines: 'PUT a.=b:' replaces lines a..b with the + lines that follow (none: delete);"
                + " 'PUT >a:' inserts the + lines after line a (>0 top, >$ end); 'DEL a.=b' deletes;"
                + " 'MV DEST' moves the file; 'REM' removes it. Each body line starts with + (removed)."
                + " Line numbers refer to the tagged content; all ops apply together or not at all.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"path\":{\"type\":\"string\",\"description\":\"File path, relative to the workspace root\"},"
                + "\"file_path\":{\"type\":\"string\",\"description\":\"Alias of path\"},"
                + "\"tag\":{\"type\":\"string\",\"description\":\"The 4-digit tag from the file's [path#TAG] header\"},"
                + "\"ops\":{\"type\":\"string\",\"description\":\"Ops text: PUT a.=b:, PUT >a:, DEL a.=b, MV DEST, REM;"
                + " body lines start with +\"}"
                + "},\"required\":[\"tag\",\"ops\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        ResolvedPath path = call.path().orElseThrow();
        try (PinnedDir root = files.root(call, path)) {
            return execute(call, path, root);
        } catch (PathChangedException e) {
            return FileErrors.changed(path, e);
        }
    }

    private ToolResult execute(ToolCall call, ResolvedPath path, PinnedDir root) throws IOException {
        Path file = path.absolute();
        String relative = root.relative(file);
        if (guard.failures(call, file) >= EditGuard.LIMIT) {
            return ToolResult.builder().error(ErrorCode.EDIT_RETRY_LIMIT).terminate(true)
                    .text("Edit already failed " + EditGuard.LIMIT + " times on " + path.display() + " in this turn;"
                            + " stop and report the mismatch instead of retrying.")
                    .build();
        }
        String tag = ((String) call.arguments().get("tag")).strip();
        String opsText = (String) call.arguments().get("ops");
        // 1. grammar and ranges
        EditScript script;
        try {
            script = EditScript.parse(opsText);
        } catch (EditScript.Failure f) {
            return fail(call, path, f.code, f.getMessage(), false, null);
        }
        FileInfo info = root.stat(relative);
        if (info == null || !info.regularFile()) {
            return fail(call, path, ErrorCode.INVALID_ARGUMENT, path.display() + " does not exist; create it with"
                    + " Write", false, null);
        }
        byte[] before;
        String mode;
        try (PinnedFile in = root.open(relative)) {
            if (in.info().size() > MAX_EDIT_BYTES) {
                return fail(call, path, ErrorCode.INVALID_ARGUMENT, path.display() + " is larger than "
                        + MAX_EDIT_BYTES + " bytes; Edit does not change files that large", false, null);
            }
            before = in.readAll(MAX_EDIT_BYTES);
            mode = in.info().mode();
        }
        if (ReadTool.binary(before, before.length)) {
            return fail(call, path, ErrorCode.INVALID_ARGUMENT, path.display() + " is a binary file; Edit changes"
                    + " text files only", false, null);
        }
        TextFile old = TextFile.parse(before);
        try {
            script.checkRanges(old.size());
        } catch (EditScript.Failure f) {
            return fail(call, path, f.code, f.getMessage(), false, null);
        }
        // 2. the tag names the live content, as this session was shown it
        byte[] live = Tags.digest(before);
        Optional<Provenance.Seen> seen = provenance.seen(call.sessionId(), file);
        String liveTag = Tags.tag(live);
        if (seen.isEmpty() || !Arrays.equals(seen.get().digest(), live)
                || !tag.replaceFirst("^#", "").toUpperCase(Locale.ROOT).equals(liveTag)) {
            String why = seen.isEmpty() ? "this session was never shown " + path.display()
                    : !Arrays.equals(seen.get().digest(), live) ? path.display() + " changed since this session was"
                            + " shown it (tag " + Tags.tag(seen.get().digest()) + ")"
                            : "tag " + tag + " is not the tag of the content this session was shown";
            return fail(call, path, ErrorCode.EDIT_TAG_MISMATCH, why + "; Read it again and use the new tag."
                    + " Nothing was written.", false, null);
        }
        // 3. every anchored line was displayed
        BitSet shown = seen.get().lines();
        BitSet missing = new BitSet();
        for (EditScript.Op o : script.ops) {
            for (long l = o.anchorFrom(); l >= 1 && l <= o.anchorTo(); l++) {
                if (!shown.get((int) l)) {
                    missing.set((int) l);
                }
            }
        }
        if (!missing.isEmpty()) {
            return unseen(call, path, old, live, missing);
        }
        // 4. apply, all or nothing
        EditScript.Op mv = script.move();
        if (script.removes()) {
            List<java.util.Map<String, Object>> records = review.record(call, List.of(
                    new ReviewSnapshots.Change(path, "delete", true, before, null, mode)));
            root.delete(relative);
            provenance.forget(call.sessionId(), file);
            return ToolResult.builder().text("Removed " + path.display() + ".").detail("removed", true)
                    .detail("reviewRecords", records.size()).build();
        }
        ResolvedPath target = path;
        String targetRelative = relative;
        if (mv != null) {
            // declared in prepare: resolved, decided (its own card when outside), re-checked and locked by the host
            List<ResolvedPath> declared = PreparedCall.paths(call);
            if (declared.size() < 2) {
                return fail(call, path, ErrorCode.INVALID_ARGUMENT, "ops line " + mv.line() + ": MV " + mv.dest()
                        + ": the destination was not declared to the host. Nothing was written.", false, null);
            }
            target = declared.get(1);
            String problem = target.absolute().equals(file) ? "the destination is the file itself"
                    : target.root() != path.root() ? "the destination is under the " + target.root().wire()
                            + " root and the file under the " + path.root().wire() + " root; MV stays in one root"
                    : null;
            if (problem == null) {
                targetRelative = root.relative(target.absolute()); // same root: pinned once for both
                problem = root.stat(targetRelative) != null ? EXISTS : null;
            }
            if (problem != null) {
                return fail(call, path, ErrorCode.INVALID_ARGUMENT, "ops line " + mv.line() + ": MV " + mv.dest()
                        + ": " + problem + ". Nothing was written.", false, null);
            }
        }
        TextFile edited = old.apply(script);
        byte[] after = edited.bytes();
        // captured before the change (spec §4c); a failed change fails the call and drops the records
        review.record(call, mv == null
                ? List.of(new ReviewSnapshots.Change(path, "edit", true, before, after, mode))
                : List.of(new ReviewSnapshots.Change(path, "delete", true, before, null, mode),
                        new ReviewSnapshots.Change(target, "edit", false, null, after, null)));
        if (mv == null) {
            AtomicWrite.write(root, relative, after, mode);
        } else {
            try {
                AtomicWrite.create(root, targetRelative, after, mode); // linked in: never over a file that appeared
            } catch (FileAlreadyExistsException e) {
                return fail(call, path, ErrorCode.INVALID_ARGUMENT, "ops line " + mv.line() + ": MV " + mv.dest()
                        + ": " + EXISTS + ". Nothing was written.", false, null);
            }
            try {
                root.delete(relative);
            } catch (IOException e) {
                root.delete(targetRelative); // all or nothing
                throw e;
            }
        }
        byte[] digest = Tags.digest(after);
        BitSet changed = edited.changedLines();
        StringBuilder out = new StringBuilder(Tags.header(target.display(), digest)).append('\n');
        BitSet displayed = edited.carriedOver(shown);
        int listed = 0;
        for (int l = changed.nextSetBit(0); l >= 0; l = changed.nextSetBit(l + 1)) {
            if (listed++ == MAX_SHOWN) {
                out.append("[more changed lines not shown; Read the file to see them]\n");
                break;
            }
            out.append(l).append('\t').append(edited.text(l)).append('\n');
            displayed.set(l);
        }
        if (changed.isEmpty()) {
            out.append(mv != null && script.ops.size() == 1 ? "Moved " + path.display() + " to " + target.display()
                    + ".\n" : "Lines removed; no new lines.\n");
        }
        if (mv != null) {
            provenance.forget(call.sessionId(), file);
        }
        provenance.displayed(call.sessionId(), target.absolute(), digest, displayed);
        ToolResult.Builder r = ToolResult.builder().text(out.toString()).detail("tag", Tags.tag(digest))
                .detail("lines", edited.size()).detail("changedLines", changed.cardinality());
        if (mv != null) {
            r.detail("movedTo", target.display()).detail("movedToRoot", target.root().wire());
        }
        return r.build();
    }

    private ToolResult unseen(ToolCall call, ResolvedPath path, TextFile old, byte[] live, BitSet missing) {
        StringBuilder out = new StringBuilder("EDIT_LINES_UNSEEN: the ops anchor on lines of ")
                .append(path.display()).append(" this session was never shown. Here they are; retry the same"
                        + " call unchanged if they are what you expect. Nothing was written.\n")
                .append(Tags.header(path.display(), live)).append('\n');
        BitSet revealed = new BitSet();
        int count = 0;
        for (int l = missing.nextSetBit(0); l >= 0 && count < MAX_REVEAL; l = missing.nextSetBit(l + 1), count++) {
            out.append(l).append('\t').append(old.text(l)).append('\n');
            revealed.set(l);
        }
        boolean complete = revealed.cardinality() == missing.cardinality();
        if (!complete) {
            out.append("[").append(missing.cardinality() - revealed.cardinality())
                    .append(" more unseen lines not shown; Read the range instead]\n");
        }
        provenance.displayed(call.sessionId(), path.absolute(), live, revealed);
        return fail(call, path, ErrorCode.EDIT_LINES_UNSEEN, out.toString(), complete, revealed);
    }

    /** A failed Edit: counted by the guard; the counted third is EDIT_RETRY_LIMIT with terminate. */
    private ToolResult fail(ToolCall call, ResolvedPath path, ErrorCode code, String message, boolean completeReveal,
            BitSet revealed) {
        int n = guard.fail(call, path.absolute(), code == ErrorCode.EDIT_LINES_UNSEEN && completeReveal);
        if (n >= EditGuard.LIMIT) {
            return ToolResult.builder().error(ErrorCode.EDIT_RETRY_LIMIT).terminate(true)
                    .text("EDIT_RETRY_LIMIT: Edit failed " + n + " times on " + path.display() + " in this turn. Last"
                            + " error " + code + ": " + message + "\n" + hint(code))
                    .detail("lastErrorCode", code.name()).detail("failures", n).build();
        }
        ToolResult.Builder r = ToolResult.builder().error(code).text(message).detail("failures", n);
        if (revealed != null) {
            List<Integer> lines = new ArrayList<>();
            revealed.stream().forEach(lines::add);
            r.detail("revealedLines", lines).detail("revealComplete", completeReveal);
        }
        return r.build();
    }

    private static String hint(ErrorCode code) {
        switch (code) {
            case EDIT_PARSE_FAILED:
                return "Stop editing this file. Report the ops text and the parse error; a body-bearing replacement"
                        + " needs a header like PUT 48.=48: followed by + lines.";
            case EDIT_RANGE_INVALID:
                return "Stop editing this file. Report the range error; line numbers must refer to the tagged"
                        + " content and ranges must not overlap.";
            case EDIT_TAG_MISMATCH:
                return "Stop editing this file. Report that its content keeps changing under you (tag mismatch);"
                        + " something else is writing it.";
            case EDIT_LINES_UNSEEN:
                return "Stop editing this file. Report which lines you could not see; Read them before any"
                        + " further change.";
            default:
                return "Stop editing this file and report the exact error above.";
        }
    }
}
