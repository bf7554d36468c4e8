package pi.host.tools.internal.file;

import java.util.Arrays;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * Runs the file tools' per-byte work once on a thread of its own when the builtin tools start (after the
 * host's first answer: they are on start level 2), so the JIT has compiled it before a first Grep or Read
 * needs it. A first content-mode Grep hashes every file it shows (the content tags) and indexes its lines:
 * megabytes on a large tree, most of it interpreted on a fresh JVM (SHA-256's compiled form is an
 * intrinsic many times faster; docs/performance-log.md, "Issue 19"). The work is on synthetic bytes in memory:
 * it reads no file and shares nothing with a call, so a call never waits for it; at worst the two share
 * the CPU for the ~0.1 s the call would otherwise have spent on the same interpreted code.
 */
@Component(immediate = true, service = {})
public final class FirstUseWarmUp {

    /** What is hashed and indexed: enough for the JIT's compile thresholds, about 1 MiB (docs/performance-log.md). */
    static final int BLOCK = 64 * 1024;
    static final int ROUNDS = 16;

    private volatile Thread thread;

    @Activate
    void activate() {
        Thread t = new Thread(FirstUseWarmUp::run, "pi-file-tools-warm-up");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** The thread the warm-up runs on (for tests). */
    Thread thread() {
        return thread;
    }

    /** Hashes and indexes a block of text lines {@link #ROUNDS} times; returns the lines indexed. */
    static long run() {
        byte[] text = new byte[BLOCK];
        Arrays.fill(text, (byte) 'x');
        for (int i = 79; i < text.length; i += 80) {
            text[i] = '\n';
        }
        long lines = 0;
        for (int r = 0; r < ROUNDS; r++) {
            Tags.digest(text);
            lines += LineIndex.ofText(text, text.length).count();
        }
        return lines;
    }
}
