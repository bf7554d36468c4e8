package pi.host.spi;

/** The plugin grants could not be read (the store is broken or busy); nothing counts as granted. */
public final class GrantsUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    public GrantsUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
