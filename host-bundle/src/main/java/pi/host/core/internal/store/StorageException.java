package pi.host.core.internal.store;

/** The store could not answer: busy past its timeout, broken, or never opened. Calls fail with STORAGE_ERROR. */
public final class StorageException extends Exception {

    private static final long serialVersionUID = 1L;

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    public StorageException(String message) {
        super(message);
    }
}
