package pi.host.core.internal.secrets;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.StorageException;
import pi.host.spi.JevSettings;

/**
 * The Jev bundle's view of its settings and key ({@link JevSettings}): read now on every question, so a
 * {@code settings.update} takes effect at the next call and a key file removed by hand is noticed.
 */
@Component(service = JevSettings.class)
public final class JevSettingsComponent implements JevSettings {

    private final SettingsService settings;
    private final SecretFiles secrets;

    @Activate
    public JevSettingsComponent(@Reference SettingsService settings, @Reference SecretFiles secrets) {
        this.settings = settings;
        this.secrets = secrets;
    }

    @Override
    public boolean enabled() {
        try {
            return Boolean.parseBoolean(settings.values().get(SettingsService.JEV_ENABLED));
        } catch (StorageException e) {
            return false; // an unreadable store offers nothing
        }
    }

    @Override
    public URI endpoint() {
        try {
            return URI.create(settings.values().get(SettingsService.JEV_ENDPOINT));
        } catch (StorageException | IllegalArgumentException e) {
            return URI.create(SettingsService.DEFAULT_JEV_ENDPOINT);
        }
    }

    @Override
    public boolean keySaved() {
        return secrets.saved(SettingsService.JEV_API_KEY);
    }

    @Override
    public Optional<String> apiKey() {
        try {
            return secrets.read(SettingsService.JEV_API_KEY);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
