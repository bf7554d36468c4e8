package pi.host.plugins.check;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** OSGi version syntax and version ranges, without the OSGi framework classes (the launcher has none). */
final class OsgiVersions {

    private static final Pattern VERSION = Pattern.compile(
            "(0|[1-9][0-9]{0,8})(?:\\.(0|[1-9][0-9]{0,8})(?:\\.(0|[1-9][0-9]{0,8})(?:\\.([A-Za-z0-9_-]+))?)?)?");
    private static final Pattern RANGE = Pattern.compile("([\\[(])\\s*([^,\\s]+)\\s*,\\s*([^\\s\\])]+)\\s*([\\])])");

    private OsgiVersions() {
    }

    /** {@code major, minor, micro} of an OSGi version, or null when {@code text} is not one. */
    static int[] parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = VERSION.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        return new int[] {number(m.group(1)), number(m.group(2)), number(m.group(3))};
    }

    /** Compares major, minor and micro; qualifiers are ignored. */
    static int compare(int[] a, int[] b) {
        for (int i = 0; i < 3; i++) {
            int c = Integer.compare(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * Whether the version range {@code range} (an interval like {@code [0.2,1)}, or a single version
     * meaning "at least") includes {@code version}. A malformed range includes nothing.
     */
    static boolean includes(String range, int[] version) {
        String r = range.strip();
        Matcher m = RANGE.matcher(r);
        if (!m.matches()) {
            int[] floor = parse(r);
            return floor != null && compare(version, floor) >= 0;
        }
        int[] low = parse(m.group(2));
        int[] high = parse(m.group(3));
        if (low == null || high == null) {
            return false;
        }
        int fromLow = compare(version, low);
        int toHigh = compare(version, high);
        boolean aboveLow = "[".equals(m.group(1)) ? fromLow >= 0 : fromLow > 0;
        boolean belowHigh = "]".equals(m.group(4)) ? toHigh <= 0 : toHigh < 0;
        return aboveLow && belowHigh;
    }

    private static int number(String digits) {
        return digits == null ? 0 : Integer.parseInt(digits);
    }
}
