package pi.host.tools.internal.file;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Content tags (EDIT-CONTRACT.md): the first four upper-case hex digits of the SHA-256 of a file's bytes. */
final class Tags {

    private Tags() {
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    static byte[] digest(byte[] bytes) {
        return sha256().digest(bytes);
    }

    /** The tag of a full digest. */
    static String tag(byte[] digest) {
        return HexFormat.of().formatHex(digest, 0, 2).toUpperCase(Locale.ROOT);
    }

    /** The header line a displayed file starts with: {@code [path#TAG]}. */
    static String header(String display, byte[] digest) {
        return "[" + display + "#" + tag(digest) + "]";
    }
}
