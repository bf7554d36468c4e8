package org.example.todoscan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Walks a folder in name order and collects the lines that carry a marker word. Symbolic links are
 * never followed; build output, dependencies, hidden files and folders, binary and large files are skipped.
 * Stops at the match limit or as soon as {@code stop} says so.
 */
final class MarkerScanner {

    static final long MAX_FILE_BYTES = 1 << 20;
    static final int MAX_FILES = 50_000;
    static final int MAX_TEXT_CHARS = 200;
    /** Folders that hold generated or fetched code, not the project's own notes. */
    private static final Set<String> SKIPPED = Set.of("node_modules", "target", "build", "dist", "out", "vendor");

    /** One marker on one line. */
    record Match(String path, int line, String marker, String text) {
        @Override
        public String toString() {
            return path + ":" + line + ": " + text;
        }
    }

    /** What a scan found, and whether it saw everything. */
    record Scan(List<Match> matches, int files, boolean limitReached, boolean stopped) {
    }

    private final Pattern pattern;
    private final int limit;
    private final BooleanSupplier stop;
    private final List<Match> matches = new ArrayList<>();
    private int files;
    private boolean limitReached;
    private boolean stopped;

    MarkerScanner(List<String> markers, int limit, BooleanSupplier stop) {
        this.pattern = Pattern.compile("\\b(" + markers.stream().map(Pattern::quote)
                .collect(Collectors.joining("|")) + ")\\b");
        this.limit = limit;
        this.stop = stop;
    }

    /** Scans {@code start} (a file or folder under {@code root}); paths in matches are relative to root. */
    Scan scan(Path root, Path start) throws IOException {
        if (Files.isDirectory(start, LinkOption.NOFOLLOW_LINKS)) {
            folder(root, start);
        } else {
            file(root, start);
        }
        return new Scan(List.copyOf(matches), files, limitReached, stopped);
    }

    private boolean done() {
        if (!limitReached && !stopped && (files >= MAX_FILES || stop.getAsBoolean())) {
            stopped = true;
        }
        return limitReached || stopped;
    }

    private void folder(Path root, Path dir) throws IOException {
        List<Path> children;
        try (Stream<Path> list = Files.list(dir)) {
            children = list.sorted().collect(Collectors.toList());
        } catch (IOException e) {
            return; // unreadable folder: nothing to report from it
        }
        for (Path child : children) {
            if (done()) {
                return;
            }
            String name = child.getFileName().toString();
            if (name.startsWith(".")) {
                continue; // hidden, like .git and .idea
            }
            if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
                if (!SKIPPED.contains(name)) {
                    folder(root, child);
                }
            } else {
                file(root, child);
            }
        }
    }

    private void file(Path root, Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_FILE_BYTES) {
            return;
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return; // unreadable file
        }
        files++;
        for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
            if (bytes[i] == 0) {
                return; // binary
            }
        }
        String display = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\r?\n|\r", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = pattern.matcher(lines[i]);
            if (m.find()) {
                if (matches.size() == limit) {
                    limitReached = true;
                    return;
                }
                matches.add(new Match(display, i + 1, m.group(1), shorten(lines[i].strip())));
            }
        }
    }

    private static String shorten(String text) {
        return text.length() <= MAX_TEXT_CHARS ? text : text.substring(0, MAX_TEXT_CHARS) + "…";
    }
}
