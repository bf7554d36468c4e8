package pi.host.tools.internal.shell;

import java.util.Map;

/**
 * Bash's arguments, checked (spec §4/§5, D273/D329): {@code timeout} is seconds from 1 to 21,600; a
 * value above 21,600 (up to 100,000,000) is milliseconds, converted and clamped to 21,600 s;
 * anything else is INVALID_ARGUMENT.
 */
record BashArguments(String command, long timeoutMs, boolean background, String description, String shell) {

    static final long DEFAULT_TIMEOUT_S = 60;
    static final long MAX_TIMEOUT_S = 21_600;
    static final double MAX_TIMEOUT_VALUE = 100_000_000;

    /** A bad argument, with the message the model reads. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    static BashArguments parse(Map<String, Object> args) throws Invalid {
        Object command = args.get("command");
        if (!(command instanceof String) || ((String) command).isBlank()) {
            throw new Invalid("'command' must be a non-empty string");
        }
        Object background = args.getOrDefault("runInBackground", Boolean.FALSE);
        if (!(background instanceof Boolean)) {
            throw new Invalid("'runInBackground' must be a boolean");
        }
        Object description = args.get("description");
        if (description != null && !(description instanceof String)) {
            throw new Invalid("'description' must be a string");
        }
        Object shell = args.get("shell");
        if (shell != null && !(shell instanceof String)) {
            throw new Invalid("'shell' must be a shell id string");
        }
        return new BashArguments((String) command, timeoutMs(args.get("timeout")), (Boolean) background,
                (String) description, (String) shell);
    }

    static long timeoutMs(Object raw) throws Invalid {
        if (raw == null) {
            return DEFAULT_TIMEOUT_S * 1000;
        }
        if (!(raw instanceof Number)) {
            throw new Invalid("'timeout' must be a number of seconds from 1 to " + MAX_TIMEOUT_S + ", got " + raw);
        }
        double v = ((Number) raw).doubleValue();
        if (Double.isNaN(v) || Double.isInfinite(v) || v < 1 || v > MAX_TIMEOUT_VALUE) {
            throw new Invalid("'timeout' must be seconds from 1 to " + MAX_TIMEOUT_S
                    + " (a value above that, up to " + (long) MAX_TIMEOUT_VALUE + ", is read as milliseconds), got "
                    + raw);
        }
        double seconds = v > MAX_TIMEOUT_S ? Math.min(v / 1000.0, MAX_TIMEOUT_S) : v;
        return Math.round(seconds * 1000.0);
    }
}
