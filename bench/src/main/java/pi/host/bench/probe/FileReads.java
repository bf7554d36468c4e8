package pi.host.bench.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.function.Function;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.PinnedFiles;

/**
 * Read's open of a small file both ways, for FileReadBenchmark: as the Read tool opened it before
 * issue 13 ({@code Files.newByteChannel} with NOFOLLOW_LINKS, size, read to the end, close) and as it
 * opens it now (the host's {@link PinnedFiles}: the folder by its path below the pinned {@code /}, the
 * file opened below it in the same openat2, size from statx, read to the end, close). Each returns
 * the bytes read.
 */
final class FileReads implements Function<Path, Object> {

    private final BundleContext context;
    private final boolean pinned;
    private final byte[] buf = new byte[64 * 1024];
    /** Looked up once, as the Read tool gets it injected once. */
    private PinnedFiles files;

    FileReads(BundleContext context, boolean pinned) {
        this.context = context;
        this.pinned = pinned;
    }

    @Override
    public Object apply(Path file) {
        try {
            return pinned ? pinned(file) : plain(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int plain(Path file) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(file, LinkOption.NOFOLLOW_LINKS)) {
            int total = 0;
            ByteBuffer b = ByteBuffer.wrap(buf, 0, (int) Math.min(buf.length, ch.size() + 1));
            int n;
            while ((n = ch.read(b)) > 0) {
                total += n;
                b.clear();
            }
            return total;
        }
    }

    private int pinned(Path file) throws IOException {
        // as the Read tool: its root by path (PinnedFiles.root -> at), the file opened below it
        try (PinnedDir dir = files().at(file.getParent()); PinnedFile f = dir.open(file.getFileName().toString())) {
            int total = 0;
            int n;
            int want = (int) Math.min(buf.length, f.info().size() + 1);
            while ((n = f.read(buf, 0, want)) > 0) {
                total += n;
            }
            return total;
        }
    }

    private PinnedFiles files() {
        if (files == null) {
            ServiceReference<PinnedFiles> ref = context.getServiceReference(PinnedFiles.class);
            files = ref == null ? null : context.getService(ref);
            if (files == null) {
                throw new IllegalStateException("the host's PinnedFiles is not registered (yet)");
            }
        }
        return files;
    }
}
