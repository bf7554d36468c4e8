package pi.host.launcher;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Recognises the one command line the desktop app spawns on every start,
 * {@code serve --stdio [--data-dir DIR] [--max-request-bytes N]}, without building picocli's
 * command model, which costs a large share of start-up (measured in docs/performance-log.md).
 * Anything else, including every malformed variant, is left to picocli, which stays the single
 * authority on the command line's syntax, help and errors.
 */
final class ServeFastPath {

    /** The options of a recognised serve command line. */
    record Options(Path dataDir, int maxRequestBytes) {
    }

    static final int DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    private ServeFastPath() {
    }

    /** The options when {@code args} is a plain, valid serve command line; empty otherwise. */
    static Optional<Options> parse(String[] args) {
        if (args.length == 0 || !"serve".equals(args[0])) {
            return Optional.empty();
        }
        boolean stdio = false;
        Path dataDir = null;
        Integer max = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if ("--stdio".equals(a) && !stdio) {
                stdio = true;
            } else if ("--data-dir".equals(a) && dataDir == null && i + 1 < args.length && !args[i + 1].startsWith("-")) {
                dataDir = Path.of(args[++i]);
            } else if ("--max-request-bytes".equals(a) && max == null && i + 1 < args.length) {
                try {
                    max = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
                if (max < 1024) {
                    return Optional.empty();
                }
            } else {
                return Optional.empty();
            }
        }
        return stdio ? Optional.of(new Options(dataDir, max == null ? DEFAULT_MAX_REQUEST_BYTES : max))
                : Optional.empty();
    }
}
