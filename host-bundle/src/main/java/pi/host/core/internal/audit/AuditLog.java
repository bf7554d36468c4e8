package pi.host.core.internal.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.store.AuditRecord;
import pi.host.core.internal.store.AuditStore;
import pi.host.core.internal.store.GroupCommit;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;

/** Writes and reads the audit trail (spec §9). Arguments are stored as a hash and a redacted preview only. */
@Component(service = AuditLog.class)
public final class AuditLog {

    /** Longest argument preview kept, in characters. */
    public static final int PREVIEW_CHARS = 2048;

    private final AuditStore store;
    /** Rows of calls that end at the same time share one transaction (group commit). */
    private final GroupCommit<AuditRecord> writes;

    @Activate
    public AuditLog(@Reference StoreComponent store) {
        this(new AuditStore(store.database()));
    }

    public AuditLog(AuditStore store) {
        this.store = store;
        this.writes = new GroupCommit<>("pi-audit-writer", store::appendAll);
    }

    /** Appends a row; when this returns it survives a crash of the host. */
    public void append(AuditRecord row) throws StorageException {
        writes.append(row);
    }

    /** Writes the rows still queued; later appends fail (STORAGE_ERROR: no call runs unaudited). */
    @Deactivate
    public void close() {
        writes.close();
    }

    public List<AuditRecord> query(String sessionId, String toolName, Long since, int limit) throws StorageException {
        return store.query(sessionId, toolName, since, limit);
    }

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
            text = Json.mapper().writeValueAsString(redactedArguments);
        } catch (JsonProcessingException e) {
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
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String cut(String text) {
        if (text.length() > PREVIEW_CHARS) {
            text = text.substring(0, PREVIEW_CHARS - 1) + "…";
        }
        // a lone surrogate (e.g. half a character left by the cut) becomes '?', as the stored text must be UTF-8
        return hasSurrogate(text) ? new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8) : text;
    }
}
