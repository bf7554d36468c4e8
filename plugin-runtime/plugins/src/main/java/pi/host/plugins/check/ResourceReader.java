package pi.host.plugins.check;

import java.io.IOException;

/**
 * Reads entries of a plugin bundle by path ({@code META-INF/pi-plugin.json},
 * {@code org/example/GitTool.class}) without loading any of its classes: a jar file offline, a
 * bundle's entries in the running host.
 */
@FunctionalInterface
public interface ResourceReader {

    /** The bytes of the entry at {@code path} (no leading '/'), or null when the bundle has none. */
    byte[] read(String path) throws IOException;
}
