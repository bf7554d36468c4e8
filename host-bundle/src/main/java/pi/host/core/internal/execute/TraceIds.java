package pi.host.core.internal.execute;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Trace ids: {@code tr_} and 32 lower-case hex digits laid out as a version-4 UUID without dashes,
 * the shape they always had. The bits come from {@link ThreadLocalRandom} rather than
 * {@code UUID.randomUUID()}: a trace id names a call, it guards nothing, and SecureRandom (a shared,
 * locked generator) plus the UUID's text and its dash removal were about 4% of a call's CPU time.
 */
final class TraceIds {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private TraceIds() {
    }

    static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48); // IETF variant
        byte[] id = new byte[3 + 32];
        id[0] = 't';
        id[1] = 'r';
        id[2] = '_';
        hex(high, id, 3);
        hex(low, id, 19);
        return new String(id, StandardCharsets.US_ASCII);
    }

    private static void hex(long bits, byte[] into, int at) {
        for (int i = 15; i >= 0; i--) {
            into[at + i] = HEX[(int) (bits & 0xF)];
            bits >>>= 4;
        }
    }
}
