package pi.host.tools.internal.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a child has open: a bash snippet that lists its own descriptors, and the parser of its lines. */
public final class Descriptors {

    /**
     * Prints "fd target" for every open descriptor of the shell itself, one a line. Looking opens
     * nothing that shows: a descriptor is tested when no command substitution holds a pipe.
     */
    public static final String LISTING = listing("\\n");
    /** {@link #LISTING} with "; " between the entries instead, all on one line. */
    public static final String LISTING_ON_ONE_LINE = listing("; ");

    private Descriptors() {
    }

    /**
     * An executable script at {@code path} that lists what it was started with (as {@code listing}
     * prints it): a shell that runs a script file keeps that file open itself (bash at fd 255), so the
     * script hands over to {@code bash -c}, which holds nothing of its own.
     */
    public static Path script(Path path, String listing) throws IOException {
        Path body = path.resolveSibling(path.getFileName() + ".listing");
        Files.writeString(body, listing);
        Files.writeString(path, "#!/bin/sh\nexec /bin/bash -c \"$(cat '" + body + "')\"\n");
        Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        return path;
    }

    private static String listing(String separator) {
        return "for i in {0..1023}; do [[ -e /proc/$$/fd/$i ]] && printf '%s %s" + separator
                + "' \"$i\" \"$(readlink /proc/$$/fd/$i)\"; done; true";
    }

    /** The descriptors of a {@link #LISTING} (or one-line) output, in order. */
    public static Map<Integer, String> parse(String listing) {
        Map<Integer, String> fds = new LinkedHashMap<>();
        for (String line : listing.strip().split("\n|; ")) {
            String entry = line.strip();
            if (entry.endsWith(";")) { // the last of a one-line listing, once its trailing space is trimmed
                entry = entry.substring(0, entry.length() - 1);
            }
            String[] parts = entry.split(" ", 2);
            fds.put(Integer.parseInt(parts[0]), parts.length > 1 ? parts[1] : "");
        }
        return fds;
    }

    /**
     * The pipes and sockets behind this JVM's own stdin, stdout and stderr (the test runner's; in the
     * host, the RPC channel and the log): no child may hold one of them.
     */
    public static List<String> channelsOfThisJvm() {
        List<String> channels = new ArrayList<>();
        for (int fd = 0; fd <= 2; fd++) {
            try {
                String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
                if (target.startsWith("pipe:") || target.startsWith("socket:")) {
                    channels.add(target);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return channels;
    }
}
