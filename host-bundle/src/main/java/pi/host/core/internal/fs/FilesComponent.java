package pi.host.core.internal.fs;

import java.io.IOException;
import java.nio.file.Path;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.store.StoreComponent;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFiles;

/**
 * The host's {@link PinnedFiles} service: the Linux edge when it loads, else {@link Unavailable}.
 * Activating it sweeps the temporary names killed hosts left (see {@link TempJournal}), before any
 * file tool, which all reference this service, can run.
 */
@Component(service = PinnedFiles.class)
public final class FilesComponent implements PinnedFiles {

    /** Under the data dir: the journals of atomic writes. */
    public static final String JOURNAL_FOLDER = "atomic-writes";
    private static final System.Logger LOG = System.getLogger(FilesComponent.class.getName());

    private final PinnedFiles files;

    @Activate
    public FilesComponent(@Reference StoreComponent store) {
        this.files = load(store.dataDir().resolve(JOURNAL_FOLDER));
        LOG.log(System.Logger.Level.INFO, "race-free file access: " + files.mechanism());
    }

    /** The Linux edge with its journal in {@code journalFolder}, or {@link Unavailable} saying why not. */
    public static PinnedFiles load(Path journalFolder) {
        try {
            return LinuxFiles.open(journalFolder);
        } catch (IOException | UnsupportedOperationException e) {
            return new Unavailable(e.getMessage());
        } catch (ExceptionInInitializerError e) {
            // LibC refuses a platform whose flag values it does not know, in its static initialiser
            return new Unavailable(String.valueOf(e.getCause() == null ? e : e.getCause().getMessage()));
        } catch (LinkageError e) {
            return new Unavailable("JNA or libc could not be loaded: " + e);
        }
    }

    @Deactivate
    private void deactivate() {
        if (files instanceof LinuxFiles) {
            ((LinuxFiles) files).close();
        }
    }

    @Override
    public String mechanism() {
        return files.mechanism();
    }

    @Override
    public PinnedDir pin(Path canonicalDirectory) throws IOException {
        return files.pin(canonicalDirectory);
    }

    @Override
    public PinnedDir at(Path canonicalDirectory) throws IOException {
        return files.at(canonicalDirectory);
    }
}
