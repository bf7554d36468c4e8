package pi.host.plugins.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Reads and copies that stop at a bound, so no entry or file of a drop-in can make the host allocate without limit. */
final class Bounded {

    /** The largest entry of a plugin bundle the runtime reads (a descriptor, a manifest, an embedded jar). */
    static final int MAX_ENTRY_BYTES = 32 * 1024 * 1024;

    private Bounded() {
    }

    /** All bytes of {@code in}, or an IOException naming {@code what} once there are more than {@code max}. */
    static byte[] read(InputStream in, int max, String what) throws IOException {
        byte[] bytes = in.readNBytes(max + 1);
        if (bytes.length > max) {
            throw new IOException(what + " is larger than " + size(max));
        }
        return bytes;
    }

    /** Copies {@code in} to {@code out}; an IOException naming {@code what} once more than {@code max} bytes came. */
    static void copy(InputStream in, OutputStream out, long max, String what) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        for (int n; (n = in.read(buffer)) >= 0;) {
            total += n;
            if (total > max) {
                throw new IOException(what + " is larger than " + size(max));
            }
            out.write(buffer, 0, n);
        }
    }

    static String size(long bytes) {
        return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes / 1024 + " KiB";
    }
}
