package pi.host.core.internal.fs;

import java.io.IOException;
import java.nio.file.Path;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFiles;

/**
 * Where neither {@code openat2} nor the {@code openat} walk can run (not Linux x86_64/aarch64, JNA
 * or libc missing, the journal folder not writable): every pin is refused, so the file tools fail
 * closed instead of opening paths that could be swapped under them.
 */
final class Unavailable implements PinnedFiles {

    static final String NAME = "unavailable";

    private final String why;

    Unavailable(String why) {
        this.why = why;
    }

    @Override
    public String mechanism() {
        return NAME;
    }

    @Override
    public PinnedDir pin(Path canonicalDirectory) throws IOException {
        throw new IOException("race-free file access is not available on this system (" + why + "); the file"
                + " tools refuse rather than open a path that could be swapped under them");
    }

    @Override
    public PinnedDir at(Path canonicalDirectory) throws IOException {
        return pin(canonicalDirectory);
    }
}
