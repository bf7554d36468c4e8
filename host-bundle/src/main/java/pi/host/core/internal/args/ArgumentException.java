package pi.host.core.internal.args;

/** A tool call's arguments are unusable before validation; the call fails with INVALID_ARGUMENT. */
public final class ArgumentException extends Exception {

    private static final long serialVersionUID = 1L;

    public ArgumentException(String message) {
        super(message);
    }
}
