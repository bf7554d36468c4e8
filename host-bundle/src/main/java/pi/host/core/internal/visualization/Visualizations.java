package pi.host.core.internal.visualization;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.StorageException;

/**
 * The session visualization dir (spec §4b.1): {@code <data_dir>/visualizations/<sessionId>/}, a third
 * host-owned root that exists only while {@code inlineVisualizations} is on. It is named by the data dir's
 * real location and two plain names, never canonicalised: a base or session folder that is a link is
 * not the visualization dir (the resolver and the pinned opens refuse the path), whatever it points at.
 */
@Component(service = Visualizations.class)
public final class Visualizations {

    static final String FOLDER = "visualizations";

    private final SettingsService settings;
    private final Path base;
    private final Path given;

    @Activate
    public Visualizations(@Reference SettingsService settings, @Reference SessionService sessions) throws IOException {
        this.settings = settings;
        this.base = sessions.dataDir().toRealPath().resolve(FOLDER);
        this.given = sessions.dataDir().toAbsolutePath().normalize().resolve(FOLDER);
    }

    /** Whether inline visualizations are on. */
    public boolean enabled() throws StorageException {
        return Boolean.parseBoolean(settings.values().get(SettingsService.INLINE_VISUALIZATIONS));
    }

    /** The session's visualization dir (real spelling, perhaps not made yet), or empty while the setting is off. */
    public Optional<Path> dirFor(String sessionId) throws StorageException {
        return enabled() ? Optional.of(base.resolve(sessionId)) : Optional.empty();
    }

    /** The same dir as the data dir was named to the host (an alias of the real one, or the same path). */
    public Path givenDirFor(String sessionId) {
        return given.resolve(sessionId);
    }

    /**
     * Makes the session's dir (lazily, on its first write): the base and the session folder as real
     * directories; a link at either is refused, never followed.
     */
    public Path ensure(String sessionId) throws IOException {
        Path dir = base.resolve(sessionId);
        for (Path p : new Path[] {base, dir}) {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectory(p);
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // made meanwhile: checked below like any other
                }
            }
            if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(p + " is not a real directory (a link?); the visualization dir is never made"
                        + " or used through one");
            }
        }
        return dir;
    }

    /** {@code <data_dir>/visualizations} (real spelling). */
    public Path base() {
        return base;
    }
}
