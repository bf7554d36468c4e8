package pi.host.core.internal.review;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import pi.host.spi.PinnedFile;

/** Full SHA-256 digests, the only thing a rollback guard compares. */
final class Digests {

    static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    static byte[] sha256(byte[] bytes) {
        return sha().digest(bytes);
    }

    /** The digest of what the open file holds, read on its own descriptor. */
    static byte[] sha256(PinnedFile file) throws IOException {
        MessageDigest md = sha();
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = file.read(buf, 0, buf.length)) > 0) {
            md.update(buf, 0, n);
        }
        return md.digest();
    }

    private Digests() {
    }
}
