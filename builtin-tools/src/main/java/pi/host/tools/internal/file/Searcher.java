package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The in-process Grep engine: files are searched in parallel on the {@link FilePool}, in chunks taken
 * in path order, so the results are the same as a sequential search and the search stops once the
 * tool's budgets are met. A file is read once into a reused buffer; its bytes are scanned for the
 * pattern's {@link Needle} before anything is decoded, and a pure literal needs no regex at all.
 * Otherwise the matching lines are those where {@code regex.matcher(line).find()} holds, on the
 * UTF-8 decoded lines ({@link #lines}), as the tool documents.
 */
final class Searcher {

    /** Files per task: small enough to balance, large enough that scheduling is noise. */
    private static final int CHUNK = 32;
    /** Buffers up to this size stay with their thread for the next file. */
    private static final int KEPT_BUFFER = 1 << 20;
    private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[64 * 1024]);

    private final Pattern regex;
    private final Needle needle;

    Searcher(Pattern regex, Needle needle) {
        this.regex = regex;
        this.needle = needle;
    }

    /**
     * The files of {@code files} (paths relative to {@code dir}, in the order to report them) with
     * matching lines, each with its count of matching lines (1 when {@code firstOnly}), in that
     * order. Stops once more than {@code maxFiles} files matched, or once {@code maxMatches} lines
     * matched and a further file matched after them.
     */
    Map<String, Integer> search(Path dir, List<Walker.Found> files, boolean firstOnly, int maxFiles, int maxMatches,
            BooleanSupplier cancelled) throws IOException {
        Map<String, Integer> out = new LinkedHashMap<>();
        ForkJoinPool pool = FilePool.get();
        int window = pool.getParallelism() * 4;
        ArrayDeque<ForkJoinTask<int[]>> inflight = new ArrayDeque<>();
        AtomicBoolean stop = new AtomicBoolean();
        int next = 0;
        int matches = 0;
        boolean budgetReached = false;
        try {
            for (int chunk = 0; chunk < files.size(); chunk += CHUNK) {
                while (inflight.size() < window && next < files.size()) {
                    int from = next;
                    int to = Math.min(files.size(), from + CHUNK);
                    inflight.add(pool.submit(() -> counts(dir, files.subList(from, to), firstOnly, stop, cancelled)));
                    next = to;
                }
                int[] counts = inflight.remove().get();
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] == 0) {
                        continue;
                    }
                    if (budgetReached || out.size() >= maxFiles) {
                        out.put(files.get(chunk + i).rel(), counts[i]);
                        return out;
                    }
                    out.put(files.get(chunk + i).rel(), counts[i]);
                    matches += counts[i];
                    budgetReached = matches >= maxMatches;
                }
                if (cancelled.getAsBoolean()) {
                    return out;
                }
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        } finally {
            stop.set(true); // chunks still queued return at once
            inflight.forEach(t -> t.cancel(false));
        }
    }

    private int[] counts(Path dir, List<Walker.Found> files, boolean firstOnly, AtomicBoolean stop,
            BooleanSupplier cancelled) {
        int[] counts = new int[files.size()];
        for (int i = 0; i < counts.length && !stop.get() && !cancelled.getAsBoolean(); i++) {
            Walker.Found f = files.get(i);
            counts[i] = count(dir.resolve(f.rel()), f.size(), firstOnly);
        }
        return counts;
    }

    /**
     * The number of matching lines of a file (0 also when it is binary or unreadable), read up to
     * the size the walk saw (a negative size: the size it has now).
     */
    private int count(Path file, long seenSize, boolean firstOnly) {
        byte[] buf = BUFFER.get();
        int len;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = seenSize >= 0 ? seenSize : ch.size();
            if (size > Integer.MAX_VALUE - 64) {
                return 0;
            }
            if (size > buf.length) {
                buf = new byte[(int) size];
                if (buf.length <= KEPT_BUFFER) {
                    BUFFER.set(buf);
                }
            }
            ByteBuffer bb = ByteBuffer.wrap(buf, 0, (int) size);
            while (bb.hasRemaining() && ch.read(bb) > 0) {
                // to that size: a file that grew meanwhile is read as it was, one that shrank to its end
            }
            len = bb.position();
        } catch (IOException | RuntimeException e) {
            return 0; // unreadable or gone: skipped, as rg does
        }
        return scan(buf, len, firstOnly, null);
    }

    /**
     * Counts the matching lines of {@code len} bytes, adding their 1-based numbers to {@code lines}
     * when it is not null; 0 for a binary file (a NUL in the first {@link GrepTool#SNIFF_BYTES}).
     */
    int scan(byte[] buf, int len, boolean firstOnly, BitSet lines) {
        String latin1 = null;
        if (needle != null) {
            latin1 = new String(buf, 0, len, StandardCharsets.ISO_8859_1);
            if (needle.find(latin1, 0) < 0) {
                return 0;
            }
        }
        if (binary(buf, len)) {
            return 0;
        }
        if (needle != null && needle.exact) {
            return literalLines(latin1, firstOnly, lines);
        }
        int count = 0;
        List<String> text = lines(buf, len);
        Matcher m = regex.matcher("");
        for (int i = 0; i < text.size(); i++) {
            if (m.reset(text.get(i)).find()) {
                count++;
                if (lines != null) {
                    lines.set(i + 1);
                }
                if (firstOnly) {
                    break;
                }
            }
        }
        return count;
    }

    /** Lines holding the (exact) needle: each occurrence's line, counted once. */
    private int literalLines(String latin1, boolean firstOnly, BitSet lines) {
        int count = 0;
        int line = 1;
        int counted = 0; // newlines before this index are in `line`
        int at = needle.find(latin1, 0);
        while (at >= 0) {
            for (int nl = latin1.indexOf('\n', counted); nl >= 0 && nl < at; nl = latin1.indexOf('\n', nl + 1)) {
                line++;
                counted = nl + 1;
            }
            count++;
            if (lines != null) {
                lines.set(line);
            }
            int eol = latin1.indexOf('\n', at);
            if (firstOnly || eol < 0) {
                break;
            }
            line++;
            counted = eol + 1;
            at = needle.find(latin1, counted);
        }
        return count;
    }

    static boolean binary(byte[] bytes, int len) {
        for (int i = 0, n = Math.min(len, GrepTool.SNIFF_BYTES); i < n; i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** The lines of a file (1-based in results), without their terminators; a leading BOM dropped. */
    static List<String> lines(byte[] bytes, int len) {
        String s = new String(bytes, 0, len, StandardCharsets.UTF_8);
        int start = s.startsWith("\uFEFF") ? 1 : 0;
        List<String> lines = new ArrayList<>();
        for (int i = s.indexOf('\n', start); i >= 0; i = s.indexOf('\n', start)) {
            int end = i > start && s.charAt(i - 1) == '\r' ? i - 1 : i;
            lines.add(s.substring(start, end));
            start = i + 1;
        }
        if (start < s.length()) {
            lines.add(s.substring(start));
        }
        return lines;
    }
}
