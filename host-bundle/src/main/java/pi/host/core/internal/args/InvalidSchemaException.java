package pi.host.core.internal.args;

/**
 * A tool's parameter schema cannot be used: it is not JSON, not a JSON object, does not conform to
 * its dialect's meta-schema, or refers to a schema the host will not load (anything outside the
 * document other than the bundled JSON Schema meta-schemas).
 */
public final class InvalidSchemaException extends Exception {

    private static final long serialVersionUID = 1L;

    public InvalidSchemaException(String message) {
        super(message);
    }

    public InvalidSchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
