package pi.host.core.internal.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.json.JsonText;
import pi.host.core.internal.store.AuditRecord;
import pi.host.core.internal.store.AuditStore;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;

/**
 * Writes and reads the audit trail (spec §9). Arguments are stored as a hash and a redacted preview only.
 *
 * <p>A call's row is durable once it is in the journal ({@link AuditJournal}: one write, before the
 * call answers); the copier moves it into SQLite moments later, many rows per transaction. A query
 * first waits for the rows appended before it, so it sees every call that has answered. A row that
 * cannot be written to the journal, or a database so far behind that {@link #MAX_BACKLOG} rows wait,
 * is a storage error for the call: no call runs unaudited.
 */
@Component(service = AuditLog.class)
public final class AuditLog {

    /** Longest argument preview kept, in characters. */
    public static final int PREVIEW_CHARS = 2048;
    /** Rows that may wait for the database before calls are refused (fail closed). */
    static final int MAX_BACKLOG = 100_000;
    /** How long a query waits for the rows appended before it to reach the database. */
    static final long QUERY_WAIT_MILLIS = 10_000;
    /** How long stopping waits for the copier to empty the journal (what is left is read back at the next start). */
    private static final long STOP_MILLIS = 30_000;
    private static final String JOURNAL_DIR = "audit-journal";

    private final AuditStore store;
    private final AuditJournal journal;
    /** Why the journal cannot be used, when it cannot (then every append fails). */
    private final StorageException journalFailure;
    private final AuditCopier copier;
    private final int maxBacklog;
    private final long queryWaitMillis;

    @Activate
    public AuditLog(@Reference StoreComponent store) {
        this(new AuditStore(store.database()), store.dataDir().resolve(JOURNAL_DIR));
    }

    public AuditLog(AuditStore store, Path journalDir) {
        this(store, journalDir, MAX_BACKLOG, QUERY_WAIT_MILLIS);
    }

    AuditLog(AuditStore store, Path journalDir, int maxBacklog, long queryWaitMillis) {
        this.store = store;
        this.maxBacklog = maxBacklog;
        this.queryWaitMillis = queryWaitMillis;
        AuditJournal j = null;
        StorageException failure = null;
        try {
            j = new AuditJournal(journalDir);
        } catch (IOException | RuntimeException e) {
            failure = new StorageException("the audit journal " + journalDir + " cannot be used: " + e.getMessage(), e);
            System.getLogger(AuditLog.class.getName()).log(System.Logger.Level.ERROR, failure.getMessage(), e);
        }
        this.journal = j;
        this.journalFailure = failure;
        this.copier = j == null ? null : new AuditCopier(j, store);
    }

    /**
     * Appends a row; when this returns it survives a crash of the host.
     *
     * @throws StorageException when it could not be written, or too many rows wait for the database
     */
    public void append(AuditRecord row) throws StorageException {
        if (journal == null) {
            throw journalFailure;
        }
        // a row counts as audited only while the database it is copied to is the host's own: with the
        // file deleted or replaced the row would go to whatever file the next start finds
        store.requireIntact();
        if (journal.appended() - copier.copied() >= maxBacklog) {
            StorageException cause = copier.failure();
            throw new StorageException(maxBacklog + " audit rows wait for the database"
                    + (cause == null ? "" : ": " + cause.getMessage()), cause);
        }
        journal.append(row);
        copier.wake();
    }

    /** Copies the rows still in the journal to the database, then refuses appends (STORAGE_ERROR: no call runs unaudited). */
    @Deactivate
    public void close() {
        if (journal == null) {
            return;
        }
        journal.refuse();
        boolean stopped = copier.stop(STOP_MILLIS);
        String deleted = journal.close(stopped && copier.copied() == journal.appended());
        if (deleted != null) {
            try {
                store.forgetSegments(List.of(deleted));
            } catch (StorageException e) {
                // a stale progress row names a segment that no longer exists: harmless
            }
        }
    }

    /** Rows matching the filters, newest first; every call that has answered is among them. */
    public List<AuditRecord> query(String sessionId, String toolName, Long since, int limit) throws StorageException {
        if (journal != null) {
            try {
                if (!copier.awaitCopied(journal.appended(), queryWaitMillis)) {
                    StorageException cause = copier.failure();
                    throw new StorageException("recent audit rows are not in the database yet"
                            + (cause == null ? "" : ": " + cause.getMessage()), cause);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException("interrupted while waiting for the audit rows", e);
            }
        }
        return store.query(sessionId, toolName, since, limit);
    }

    private static final HexFormat HEX = HexFormat.of();
    /** One digest per thread: looking the algorithm up for every call showed in the pipeline's profile. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    /** The redacted arguments as an audit row stores them: their hash and their preview. */
    public record Arguments(String hash, String preview) {
    }

    /**
     * The hash ({@link #hash}) and preview ({@link #preview}) of the redacted arguments, from one
     * serialisation where that gives the same bytes (both are on every call's path).
     */
    public static Arguments describe(JsonNode redactedArguments) {
        String text;
        try {
            text = JsonText.of(redactedArguments); // the mapper's text, without its provider (on every call)
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        // Jackson's byte writer escapes surrogates (as backslash-u escapes) where its text writer keeps them: only
        // without them are the text's UTF-8 bytes the bytes the hash has always been taken over
        String hash = hasSurrogate(text) ? hash(redactedArguments) : sha256(text.getBytes(StandardCharsets.UTF_8));
        return new Arguments(hash, cut(text));
    }

    private static boolean hasSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** SHA-256 of the redacted arguments' JSON: tells equal calls apart without keeping their secrets. */
    public static String hash(JsonNode redactedArguments) {
        try {
            return sha256(Json.mapper().writeValueAsBytes(redactedArguments));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The redacted arguments as JSON text, cut to {@link #PREVIEW_CHARS}. */
    public static String preview(JsonNode redactedArguments) {
        String text;
        try {
            text = Json.mapper().writeValueAsString(redactedArguments);
        } catch (JsonProcessingException e) {
            text = String.valueOf(redactedArguments);
        }
        return cut(text);
    }

    private static String sha256(byte[] json) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        return HEX.formatHex(digest.digest(json));
    }

    private static String cut(String text) {
        if (text.length() > PREVIEW_CHARS) {
            text = text.substring(0, PREVIEW_CHARS - 1) + "…";
        }
        // a lone surrogate (e.g. half a character left by the cut) becomes '?', as the stored text must be UTF-8
        return hasSurrogate(text) ? new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8) : text;
    }
}
