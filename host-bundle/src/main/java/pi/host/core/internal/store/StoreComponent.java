package pi.host.core.internal.store;

import java.nio.file.Path;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.info.FirstAnswer;

/**
 * Owns the data dir and its database for the host's lifetime. The data dir comes from the
 * framework property {@code pi.host.data} (set by the launcher); without it, the bundle's private
 * storage area is used (in-container tests). The database's background checkpoints wait for the tool
 * calls to pause ({@link FirstAnswer#paused}), so they do not run inside a session's first calls.
 */
@Component(service = StoreComponent.class)
public final class StoreComponent {

    /** Framework property naming the data dir. */
    public static final String DATA_DIR = "pi.host.data";

    private final Path dataDir;
    private final Database database;

    @Activate
    public StoreComponent(BundleContext context, @Reference FirstAnswer calls) {
        this.dataDir = dataDir(context);
        // begun when the bundle started (EarlyOpen), so that it runs beside the components activated before this one
        this.database = EarlyOpen.take(databaseFile(context), calls::paused);
    }

    /** The data dir: {@value #DATA_DIR}, else the bundle's private storage area. */
    static Path dataDir(BundleContext context) {
        String configured = context.getProperty(DATA_DIR);
        return configured != null && !configured.isBlank()
                ? Path.of(configured).toAbsolutePath().normalize()
                : context.getDataFile("data").toPath().toAbsolutePath();
    }

    /** The database's file in {@link #dataDir}. */
    static Path databaseFile(BundleContext context) {
        return dataDir(context).resolve("pi-host.db");
    }

    @Deactivate
    private void deactivate() {
        database.close();
    }

    public Path dataDir() {
        return dataDir;
    }

    public Database database() {
        return database;
    }
}
