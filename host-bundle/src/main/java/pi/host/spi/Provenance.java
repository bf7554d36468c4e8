package pi.host.spi;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A session's provenance (EDIT-CONTRACT.md): per canonical path, the full SHA-256 digest of the
 * content the session was last shown and the set of its displayed line numbers (1-based bits).
 * Host state outside the workspace, removed with the session.
 */
@ProviderType
public interface Provenance {

    /** What a session was shown of one file: the content's digest and its displayed lines. */
    record Seen(byte[] digest, BitSet lines) {
        public Seen {
            digest = digest.clone();
            lines = (BitSet) lines.clone();
        }

        @Override
        public byte[] digest() {
            return digest.clone();
        }

        @Override
        public BitSet lines() {
            return (BitSet) lines.clone();
        }
    }

    /**
     * Records that {@code lines} of the content with {@code digest} were displayed. When the
     * recorded content is the same, the lines are merged; otherwise the record is replaced.
     */
    void displayed(String sessionId, Path file, byte[] digest, BitSet lines);

    /** The record of one file, or empty when the session was shown nothing of it. */
    Optional<Seen> seen(String sessionId, Path file);

    /** Drops the record of one file (after a rollback, a removal or a move). */
    void forget(String sessionId, Path file);
}
