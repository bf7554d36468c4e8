package pi.host.launcher.dropin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How a drop-in's code shows that it ran: it appends its class name to the file its jar names in
 * {@code pi-marker.txt}. A test that finds no such file knows none of the jar's code ran.
 */
public final class Marker {

    /** The entry (in the drop-in jar) holding the marker file's path. */
    public static final String ENTRY = "pi-marker.txt";

    private Marker() {
    }

    /** Records that {@code who} ran. */
    public static void touch(Class<?> who) {
        try (InputStream in = who.getClassLoader().getResourceAsStream(ENTRY)) {
            Path marker = Path.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
            Files.writeString(marker, who.getSimpleName() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
