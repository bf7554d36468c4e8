package pi.host.tools.internal.file;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Content tags (EDIT-CONTRACT.md): the first four upper-case hex digits of the SHA-256 of a file's bytes. */
final class Tags {

    /**
     * One digest per thread: looking the algorithm up ({@code MessageDigest.getInstance}, the providers'
     * service lookup) on every Read was 3 % of the call thread's samples in a fresh host's first 200 Reads.
     * Its value is a JDK object, so a thread that outlives this bundle keeps none of its classes.
     */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(Tags::newSha256);

    private Tags() {
    }

    /** This thread's SHA-256, reset: one use at a time on a thread (done with {@code digest()} before the next). */
    static MessageDigest sha256() {
        MessageDigest digest = SHA256.get();
        digest.reset(); // a Read that stopped halfway (a binary file, an abort) left its bytes in it
        return digest;
    }

    private static MessageDigest newSha256() {
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
