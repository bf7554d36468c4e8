package org.example.todoscan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import pi.host.api.ErrorCode;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/**
 * The {@code todos} tool: the TODO/FIXME/XXX lines of the workspace as {@code path:line: text}.
 * It declares no risk (so the host runs it as medium) and no actions (so Plan and Goal hide it).
 */
public final class TodoScanTool implements PluginTool {

    static final List<String> DEFAULT_MARKERS = List.of("TODO", "FIXME", "XXX");
    static final List<String> KNOWN_MARKERS = List.of("TODO", "FIXME", "XXX", "HACK");
    static final int DEFAULT_LIMIT = 200;
    static final int MAX_LIMIT = 1000;

    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        Map<String, Object> args = call.arguments();
        Path root = call.workspaceRoot().toRealPath();
        Path start;
        List<String> markers;
        int limit;
        try {
            start = start(root, args.get("path"));
            markers = markers(args.get("markers"));
            limit = limit(args.get("limit"));
        } catch (IllegalArgumentException e) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, e.getMessage());
        }
        // leave a second before the host's deadline to answer with what was found
        Instant stopAt = call.deadline().minusSeconds(1);
        MarkerScanner.Scan scan = new MarkerScanner(markers, limit,
                () -> call.isCancelled() || Instant.now().isAfter(stopAt)).scan(root, start);
        if (call.isCancelled()) {
            return ToolResult.error(ErrorCode.TOOL_ABORTED, "scan cancelled after " + scan.files() + " files");
        }
        return result(scan, markers, limit);
    }

    private static ToolResult result(MarkerScanner.Scan scan, List<String> markers, int limit) {
        StringBuilder text = new StringBuilder();
        for (MarkerScanner.Match m : scan.matches()) {
            text.append(m).append('\n');
        }
        if (scan.matches().isEmpty()) {
            text.append("no ").append(String.join(", ", markers)).append(" markers in ").append(scan.files())
                    .append(" files\n");
        }
        if (scan.limitReached()) {
            text.append("[stopped at ").append(limit).append(" matches; narrow it with path or markers]\n");
        } else if (scan.stopped()) {
            text.append("[stopped after ").append(scan.files()).append(" files (time or file budget); narrow it with path]\n");
        }
        Map<String, Long> byMarker = new LinkedHashMap<>();
        markers.forEach(marker -> byMarker.put(marker, 0L));
        scan.matches().forEach(m -> byMarker.merge(m.marker(), 1L, Long::sum));
        return ToolResult.builder().text(text.toString().stripTrailing())
                .truncated(scan.limitReached() || scan.stopped())
                .detail("matches", scan.matches().size()).detail("files", scan.files())
                .detail("byMarker", byMarker).build();
    }

    /** The workspace-relative file or folder to scan; it must exist and stay inside the workspace, links resolved. */
    private static Path start(Path root, Object value) throws IOException {
        if (value == null) {
            return root;
        }
        String raw = String.valueOf(value);
        Path relative;
        try {
            relative = Path.of(raw).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("path is not a valid path: " + raw);
        }
        if (raw.isEmpty() || relative.isAbsolute() || relative.startsWith("..")) {
            throw new IllegalArgumentException("path must be relative to the workspace and stay inside it: " + raw);
        }
        Path target = root.resolve(relative);
        if (!Files.exists(target)) {
            throw new IllegalArgumentException("no such file or folder in the workspace: " + raw);
        }
        if (!target.toRealPath().startsWith(root)) {
            throw new IllegalArgumentException("path leads out of the workspace through a link: " + raw);
        }
        return target.toRealPath();
    }

    private static List<String> markers(Object value) {
        if (value == null) {
            return DEFAULT_MARKERS;
        }
        if (!(value instanceof List) || ((List<?>) value).isEmpty()
                || !KNOWN_MARKERS.containsAll((List<?>) value)) {
            throw new IllegalArgumentException("markers must be a non-empty list of " + KNOWN_MARKERS);
        }
        return ((List<?>) value).stream().map(String::valueOf).distinct().collect(Collectors.toList());
    }

    private static int limit(Object value) {
        if (value == null) {
            return DEFAULT_LIMIT;
        }
        if (!(value instanceof Number) || ((Number) value).intValue() < 1 || ((Number) value).intValue() > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be a whole number from 1 to " + MAX_LIMIT);
        }
        return ((Number) value).intValue();
    }
}
