package pi.host.spi;

import java.net.URI;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What the Jev bundle ({@code pi.host.jev}) reads of the user's settings: whether Jev is enabled,
 * the provider endpoint, and the saved API key. The key is write-only on the protocol
 * ({@code settings.get} never shows it) and is kept outside the database, in a file only the user may
 * read; this is the one way to it, and only host bundles are wired to this package. The host
 * implements it.
 */
@ProviderType
public interface JevSettings {

    /** {@code jev.enabled}. */
    boolean enabled();

    /** {@code jev.endpoint}: the provider's evaluation URL. */
    URI endpoint();

    /** True when a key is saved (cheap: no read of the key itself). */
    boolean keySaved();

    /**
     * The saved key, read now; empty when none is saved or it cannot be read. Keep it no longer
     * than one request, and never put it in a result, a log line or an exception.
     */
    Optional<String> apiKey();
}
