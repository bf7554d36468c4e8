package pi.host.core.internal.execute;

import java.util.ArrayList;
import java.util.List;

/**
 * The last line of defence on result size: a result whose text blocks together exceed the bound
 * keeps its head and tail and says how much was cut. Tools page and bound their own output; this
 * only stops a misbehaving provider from flooding the client and the model.
 */
public final class OutputLimits {

    /** Most characters of text one result may carry. */
    public static final int MAX_RESULT_CHARS = 256 * 1024;

    private OutputLimits() {
    }

    /** The blocks, cut to {@code max} characters in total; {@code cut[0]} is set when anything was removed. */
    public static List<String> bound(List<String> blocks, int max, boolean[] cut) {
        long total = 0;
        for (String b : blocks) {
            total += b.length();
        }
        if (total <= max) {
            return blocks;
        }
        cut[0] = true;
        String all = String.join("\n", blocks);
        int keep = max / 2;
        int headEnd = safeCut(all, keep);
        int tailStart = safeCut(all, all.length() - keep);
        List<String> out = new ArrayList<>(1);
        out.add(all.substring(0, headEnd) + "\n[... " + (tailStart - headEnd) + " characters truncated ...]\n"
                + all.substring(tailStart));
        return out;
    }

    /** Moves a cut off the middle of a surrogate pair. */
    static int safeCut(String s, int at) {
        if (at > 0 && at < s.length() && Character.isHighSurrogate(s.charAt(at - 1))) {
            return at - 1;
        }
        return at;
    }
}
