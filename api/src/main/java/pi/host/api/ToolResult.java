package pi.host.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The typed outcome of a tool call: text content for the model, structured details for the
 * client, and an error code when it failed. Immutable.
 */
public final class ToolResult {

    private final ErrorCode errorCode;
    private final List<String> text;
    private final Map<String, Object> details;
    private final boolean truncated;
    private final boolean terminate;

    private ToolResult(Builder b) {
        this.errorCode = b.errorCode;
        this.text = Collections.unmodifiableList(new ArrayList<>(b.text));
        this.details = Collections.unmodifiableMap(new LinkedHashMap<>(b.details));
        this.truncated = b.truncated;
        this.terminate = b.terminate;
    }

    /** A successful result with one text block. */
    public static ToolResult ok(String text) {
        return builder().text(text).build();
    }

    /** A failed result with one text block explaining what went wrong. */
    public static ToolResult error(ErrorCode code, String message) {
        return builder().error(code).text(message).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True unless the result carries an error code. */
    public boolean ok() {
        return errorCode == null;
    }

    /** The error code, or null for a success. */
    public ErrorCode errorCode() {
        return errorCode;
    }

    /** The text blocks shown to the model, in order. */
    public List<String> text() {
        return text;
    }

    /** Structured details for the client (JSON-compatible values). */
    public Map<String, Object> details() {
        return details;
    }

    /** True when output was cut to fit the output bounds. */
    public boolean truncated() {
        return truncated;
    }

    /** True when the agent should stop its loop and report (for example a retry limit). */
    public boolean terminate() {
        return terminate;
    }

    /** A copy of this result to change. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.errorCode = errorCode;
        b.text.addAll(text);
        b.details.putAll(details);
        b.truncated = truncated;
        b.terminate = terminate;
        return b;
    }

    @Override
    public String toString() {
        return (ok() ? "ok" : errorCode.name()) + " " + text;
    }

    /** Builds a {@link ToolResult}. */
    public static final class Builder {
        private ErrorCode errorCode;
        private final List<String> text = new ArrayList<>();
        private final Map<String, Object> details = new LinkedHashMap<>();
        private boolean truncated;
        private boolean terminate;

        private Builder() {
        }

        public Builder error(ErrorCode code) {
            this.errorCode = Objects.requireNonNull(code, "code");
            return this;
        }

        public Builder text(String block) {
            text.add(Objects.requireNonNull(block, "block"));
            return this;
        }

        public Builder detail(String key, Object value) {
            details.put(Objects.requireNonNull(key, "key"), value);
            return this;
        }

        public Builder truncated(boolean value) {
            this.truncated = value;
            return this;
        }

        public Builder terminate(boolean value) {
            this.terminate = value;
            return this;
        }

        public ToolResult build() {
            return new ToolResult(this);
        }
    }
}
