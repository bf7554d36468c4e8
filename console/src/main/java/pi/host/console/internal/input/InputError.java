package pi.host.console.internal.input;

/**
 * A typed line the console cannot turn into a call or a command. Its message is the one line the
 * person sees: what is wrong and how to write it. Nothing is sent to the host for such a line.
 */
public final class InputError extends Exception {

    private static final long serialVersionUID = 1L;

    public InputError(String message) {
        super(message);
    }
}
