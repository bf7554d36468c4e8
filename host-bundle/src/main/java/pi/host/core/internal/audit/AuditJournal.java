package pi.host.core.internal.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import pi.host.core.internal.store.AuditRecord;
import pi.host.core.internal.store.StorageException;

/**
 * The audit rows written but not yet in SQLite, kept durable in append-only segment files under
 * {@code <data_dir>/audit-journal/}. A call's row is written here with one positional write before
 * the call answers; once {@link #append} returns, the row is in the operating system's page cache
 * and survives a crash of the host process (kill -9), the same guarantee a WAL commit with
 * {@code synchronous=NORMAL} gives, at the cost of a system call instead of a SQLite transaction.
 * The copier ({@link AuditCopier}) takes the rows in append order and moves them into SQLite;
 * segments whose rows are all there are deleted. Segments left by a host that died are read back
 * at the next start ({@link #read}).
 *
 * <p>A segment file is a sequence of frames: payload length (int), CRC-32C of the payload (int),
 * payload ({@link JournalCodec}). Appends are serialised, and a frame counts only once written in
 * full, so a crash can leave at most one torn frame, at the end, where reading stops.
 */
final class AuditJournal implements AutoCloseable {

    static final String SUFFIX = ".journal";
    /** A segment is sealed, and a new one started, past this size. */
    static final long SEGMENT_BYTES = 4L << 20;
    /** Larger frames are refused when written and taken for garbage when read. */
    static final int MAX_FRAME = 1 << 20;
    private static final int HEADER = 8;

    /** Where a row is: its segment file's name and its index among that segment's rows. */
    record Entry(AuditRecord row, String segment, int index) {
    }

    /** A segment no longer appended to, and how many rows it holds. */
    private record Sealed(String segment, int rows) {
    }

    private final Path dir;
    private final long segmentBytes;
    /** Segment name prefix of this run: names sort in the order the segments were written. */
    private final String run;
    private final List<Path> earlier;
    private final ThreadLocal<ByteBuffer> buffers = ThreadLocal.withInitial(() -> ByteBuffer.allocate(4096));
    private final ConcurrentLinkedQueue<Entry> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger backlog = new AtomicInteger();

    // guarded by this
    private int segmentNo;
    private String segment;
    private FileChannel channel;
    private long size;
    private int rows;
    private boolean closed;
    /** Rows written (volatile: read without the lock; written only under it). */
    private volatile long appended;
    /** Segments no longer appended to, oldest first, with their row counts (guarded by this). */
    private final Deque<Sealed> sealed = new ArrayDeque<>();

    /** Opens the journal in {@code dir}; the segments already there are {@link #earlier()}. */
    AuditJournal(Path dir) throws IOException {
        this(dir, SEGMENT_BYTES);
    }

    AuditJournal(Path dir, long segmentBytes) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.segmentBytes = segmentBytes;
        this.earlier = segments(dir);
        // the time orders runs; the random part keeps two journals opened in the same millisecond (two
        // hosts on one data dir, or a test) from choosing the same names
        this.run = String.format("%013d-%04x", System.currentTimeMillis(),
                ThreadLocalRandom.current().nextInt(0x10000));
    }

    /** Segment files of earlier runs, oldest first: rows a host that stopped did not copy. */
    List<Path> earlier() {
        return earlier;
    }

    /**
     * Writes {@code row} and queues it for the copier. When this returns the row survives a crash
     * of the process.
     *
     * @throws StorageException when the row could not be written (then it was not queued)
     */
    Entry append(AuditRecord row) throws StorageException {
        ByteBuffer reused = buffers.get();
        ByteBuffer frame = JournalCodec.encode(row, reused.clear().position(HEADER));
        if (frame != reused) {
            buffers.set(frame); // keep the grown buffer for this thread's next row
        }
        int payload = frame.position() - HEADER;
        if (payload + HEADER > MAX_FRAME) {
            throw new StorageException("audit row of " + payload + " bytes is over the journal's limit");
        }
        CRC32C crc = new CRC32C();
        crc.update(frame.array(), HEADER, payload);
        frame.putInt(0, payload).putInt(4, (int) crc.getValue()).flip();
        synchronized (this) {
            if (closed) {
                throw new StorageException("the audit journal is closed: the host is shutting down");
            }
            try {
                if (channel == null || (size + frame.remaining() > segmentBytes && rows > 0)) {
                    startSegment();
                }
                long at = size;
                while (frame.hasRemaining()) {
                    at += channel.write(frame, at);
                }
            } catch (IOException e) {
                // the next row goes to the same offset, over whatever part of this one was written
                throw new StorageException("the audit journal cannot be written: " + e.getMessage(), e);
            }
            size += HEADER + payload;
            Entry entry = new Entry(row, segment, rows++);
            appended++;
            backlog.incrementAndGet(); // before the row is visible: take() never drives the count below zero
            pending.add(entry);
            return entry;
        }
    }

    private void startSegment() throws IOException {
        if (channel != null) {
            // sealed once: if opening the next segment fails (a full disk), the next append comes back
            // here with no channel instead of sealing this segment again under the new name
            FileChannel old = channel;
            channel = null;
            sealed.add(new Sealed(segment, rows));
            old.close();
        }
        while (true) {
            segment = run + "-" + String.format("%06d", segmentNo++) + SUFFIX;
            try {
                channel = FileChannel.open(dir.resolve(segment), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
                break;
            } catch (FileAlreadyExistsException taken) {
                // another journal chose the same name (same millisecond, same random part): the next number
            }
        }
        // held while this process lives (the system drops it on exit or kill): another host process
        // started on the same data dir leaves a locked segment alone instead of copying it as left over
        channel.tryLock();
        size = 0;
        rows = 0;
    }

    /** Rows this journal has written. */
    long appended() {
        return appended;
    }

    /** Refuses further rows (the host is stopping); those written stay queued for the copier. */
    synchronized void refuse() {
        closed = true;
    }

    /** Up to {@code max} queued rows, in append order (the copier's; one taker at a time). */
    List<Entry> take(int max) {
        List<Entry> out = new ArrayList<>(Math.min(max, 256));
        Entry e;
        while (out.size() < max && (e = pending.poll()) != null) {
            out.add(e);
        }
        backlog.addAndGet(-out.size());
        return out;
    }

    /** Rows appended and not yet taken. */
    int backlog() {
        return backlog.get();
    }

    /**
     * Tells the journal that every row up to {@code last} is in the database: sealed segments
     * holding only such rows are deleted. Returns the names of the deleted segments.
     */
    synchronized List<String> copied(Entry last) {
        List<String> deleted = new ArrayList<>();
        while (!sealed.isEmpty()) {
            // segment names sort in the order they were written
            Sealed s = sealed.peekFirst();
            int order = s.segment().compareTo(last.segment());
            boolean done = order < 0 || (order == 0 && last.index() == s.rows() - 1);
            if (!done) {
                break;
            }
            try {
                Files.deleteIfExists(dir.resolve(s.segment()));
            } catch (IOException e) {
                break; // kept: its rows are read back, and skipped as copied, at the next start
            }
            deleted.add(s.segment());
            sealed.pollFirst();
        }
        return deleted;
    }

    /**
     * Refuses further rows. With {@code allCopied}, every row appended is in the database and the
     * current segment is deleted too; returns its name then (null otherwise).
     */
    synchronized String close(boolean allCopied) {
        closed = true;
        if (channel == null) {
            return null;
        }
        try {
            channel.close();
            if (allCopied && sealed.isEmpty()) {
                Files.deleteIfExists(dir.resolve(segment));
                return segment;
            }
        } catch (IOException e) {
            // the segment stays; the next start reads it back and skips the rows already copied
        }
        return null;
    }

    @Override
    public void close() {
        close(false);
    }

    /** The segment files in {@code dir}, oldest first. */
    static List<Path> segments(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        }
    }

    /**
     * Reads the rows of a segment, in order, up to the end or the first frame that is torn or
     * corrupt. Returns how many were read.
     */
    static int read(Path segment, Consumer<AuditRecord> rows) throws IOException {
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(segment));
        int n = 0;
        CRC32C crc = new CRC32C();
        while (all.remaining() >= HEADER) {
            int length = all.getInt(all.position());
            int sum = all.getInt(all.position() + 4);
            if (length <= 0 || length > MAX_FRAME - HEADER || length > all.remaining() - HEADER) {
                break;
            }
            crc.reset();
            crc.update(all.array(), all.position() + HEADER, length);
            if ((int) crc.getValue() != sum) {
                break;
            }
            ByteBuffer payload = ByteBuffer.wrap(all.array(), all.position() + HEADER, length).slice();
            AuditRecord row;
            try {
                row = JournalCodec.decode(payload);
            } catch (IllegalArgumentException e) {
                break;
            }
            rows.accept(row);
            n++;
            all.position(all.position() + HEADER + length);
        }
        return n;
    }
}
