package pi.host.core.internal.audit;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import pi.host.core.internal.store.AuditRecord;

/**
 * An audit row as bytes in the journal: a format version, then every field in the order of
 * {@link AuditRecord} (the row id excepted: SQLite assigns it). Strings are a length (-1 for null)
 * and their UTF-8 bytes. Framing and checksums are the journal's; this class only knows a row.
 */
final class JournalCodec {

    /**
     * Bumped when the layout changes; a record of an unknown version is not read back as a row. Version
     * 2 appended the definition hash and the declared paths; version 1 records (left by an older host) are
     * still read back, without either.
     */
    static final byte VERSION = 2;
    private static final byte VERSION_1 = 1;

    private JournalCodec() {
    }

    /** Appends {@code r} to {@code out}, growing it as needed; returns the buffer written to. */
    static ByteBuffer encode(AuditRecord r, ByteBuffer out) {
        out = room(out, 1 + 8);
        out.put(VERSION);
        out.putLong(r.at());
        out = string(out, r.sessionId());
        out = string(out, r.turnId());
        out = string(out, r.toolCallId());
        out = string(out, r.toolName());
        out = string(out, r.traceId());
        out = string(out, r.delegate());
        out = string(out, r.argsHash());
        out = string(out, r.argsPreview());
        out = string(out, r.externalPath());
        out = string(out, r.decision());
        out = string(out, r.rule());
        out = string(out, r.source());
        out = room(out, 1 + 4 * 8 + 1);
        out.put((byte) (r.prompted() ? 1 : 0));
        out.putDouble(r.permissionWaitMs());
        out.putDouble(r.durationMs());
        out.putDouble(r.overheadMs());
        out.putDouble(r.totalMs());
        out.put((byte) (r.ok() ? 1 : 0));
        out = string(out, r.errorCode());
        out = string(out, r.definitionHash());
        return string(out, r.paths());
    }

    /**
     * The row in {@code in} (position to limit).
     *
     * @throws IllegalArgumentException when the bytes are not a row of this version
     */
    static AuditRecord decode(ByteBuffer in) {
        try {
            byte version = in.get();
            if (version != VERSION && version != VERSION_1) {
                throw new IllegalArgumentException("journal record of unknown version " + version);
            }
            long at = in.getLong();
            String sessionId = string(in);
            String turnId = string(in);
            String toolCallId = string(in);
            String toolName = string(in);
            String traceId = string(in);
            String delegate = string(in);
            String argsHash = string(in);
            String argsPreview = string(in);
            String externalPath = string(in);
            String decision = string(in);
            String rule = string(in);
            String source = string(in);
            boolean prompted = in.get() == 1;
            double permissionWaitMs = in.getDouble();
            double durationMs = in.getDouble();
            double overheadMs = in.getDouble();
            double totalMs = in.getDouble();
            boolean ok = in.get() == 1;
            String errorCode = string(in);
            String definitionHash = version == VERSION_1 ? null : string(in);
            String paths = version == VERSION_1 ? null : string(in);
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("journal record has " + in.remaining() + " bytes too many");
            }
            return new AuditRecord(0, at, sessionId, turnId, toolCallId, toolName, traceId, delegate, argsHash,
                    argsPreview, externalPath, decision, rule, source, prompted, permissionWaitMs, durationMs,
                    overheadMs, totalMs, ok, errorCode, definitionHash, paths);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("journal record is cut short", e);
        }
    }

    private static ByteBuffer string(ByteBuffer out, String s) {
        if (s == null) {
            out = room(out, 4);
            return out.putInt(-1);
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out = room(out, 4 + bytes.length);
        return out.putInt(bytes.length).put(bytes);
    }

    private static String string(ByteBuffer in) {
        int length = in.getInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("journal record has a string of impossible length " + length);
        }
        String s = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return s;
    }

    /** {@code out}, or a larger copy of it when fewer than {@code bytes} remain. */
    private static ByteBuffer room(ByteBuffer out, int bytes) {
        if (out.remaining() >= bytes) {
            return out;
        }
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + bytes));
        out.flip();
        return bigger.put(out);
    }
}
