package pi.host.jev.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;

/**
 * Turns the provider's reply into the typed result of JevClassify: answers and usage on success; on a
 * failure {@code TOOL_FAILED} (or {@code PROVIDER_TIMEOUT}) with {@code details.providerError} naming the
 * kind ({@code unauthorized}, {@code rate-limited}, {@code unavailable}, {@code rejected},
 * {@code malformed-response}, {@code unreachable}), the HTTP status and, for 429, the Retry-After in
 * seconds. The provider's own message is kept short, stripped of control characters, and never carries
 * the key (every occurrence is masked before the text exists).
 */
final class ProviderResults {

    static final int MAX_PROVIDER_MESSAGE = 300;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ProviderResults() {
    }

    static ToolResult of(JevClient.Reply reply, List<Question> asked, String key) {
        if (reply instanceof JevClient.TimedOut) {
            return ToolResult.builder().error(ErrorCode.PROVIDER_TIMEOUT)
                    .text("Jev did not answer within " + JevClient.PROVIDER_TIMEOUT.toSeconds() + " s; the request was"
                            + " cancelled")
                    .detail("providerError", "timeout").detail("timeoutMs", JevClient.PROVIDER_TIMEOUT.toMillis())
                    .build();
        }
        if (reply instanceof JevClient.Cancelled) {
            return ToolResult.error(ErrorCode.TOOL_ABORTED, "the call was aborted; the request to Jev was cancelled");
        }
        if (reply instanceof JevClient.Unreachable) {
            return failure("unreachable", 0, "Jev could not be reached ("
                    + clean(((JevClient.Unreachable) reply).what(), key) + ")").build();
        }
        JevClient.Answered answered = (JevClient.Answered) reply;
        int status = answered.status();
        if (status == 200) {
            return answers(answered.body(), asked);
        }
        String said = providerMessage(answered.body(), key);
        if (status == 401 || status == 403) {
            return failure("unauthorized", status, "Jev refused the API key (HTTP " + status + "): check the key in"
                    + " Settings" + said).build();
        }
        if (status == 429) {
            Long seconds = retryAfter(answered.retryAfter().orElse(null));
            ToolResult.Builder b = failure("rate-limited", status, "Jev is rate limiting requests (HTTP 429)"
                    + (seconds == null ? "" : "; retry after " + seconds + " s") + said);
            return (seconds == null ? b : b.detail("retryAfterSeconds", seconds)).build();
        }
        if (status >= 500) {
            return failure("unavailable", status, "Jev failed (HTTP " + status + ")" + said).build();
        }
        return failure("rejected", status, "Jev rejected the request (HTTP " + status + ")" + said).build();
    }

    private static ToolResult answers(byte[] body, List<Question> asked) {
        JevAnswers.Checked checked;
        try {
            checked = JevAnswers.check(asked, body);
        } catch (JevAnswers.Malformed e) {
            return failure("malformed-response", 200, "Jev's response could not be used: " + e.getMessage()).build();
        }
        StringBuilder text = new StringBuilder();
        for (Map<String, Object> a : checked.answers()) {
            text.append(a.get("id")).append(": ").append(a.get("value"));
            Object p = a.containsKey("probability") ? a.get("probability") : a.get("confidence");
            if (p != null) {
                text.append(a.containsKey("probability") ? " (p=" : " (confidence ").append(p).append(')');
            }
            text.append('\n');
        }
        return ToolResult.builder().text(text.toString().strip()).detail("answers", checked.answers())
                .detail("usage", checked.usage()).detail("model", checked.model()).build();
    }

    private static ToolResult.Builder failure(String kind, int status, String message) {
        ToolResult.Builder b = ToolResult.builder().error(ErrorCode.TOOL_FAILED).text(message).detail("providerError", kind);
        return status == 0 ? b : b.detail("status", status);
    }

    /** The provider's own message (its {@code error.message}, {@code message} or {@code detail}), as ": ..." or "". */
    static String providerMessage(byte[] body, String key) {
        String message = null;
        try {
            JsonNode root = JSON.readTree(body);
            if (root != null) {
                JsonNode error = root.get("error");
                JsonNode m = error != null && error.isObject() ? error.get("message")
                        : error != null && error.isTextual() ? error : root.has("message") ? root.get("message")
                        : root.get("detail");
                message = m != null && m.isTextual() ? m.textValue() : null;
            }
        } catch (java.io.IOException | RuntimeException e) {
            message = null; // not JSON: the status says enough
        }
        return message == null || message.isBlank() ? "" : ": " + clean(message, key);
    }

    /** Short, one line, no control characters, the key masked. */
    static String clean(String text, String key) {
        String t = key == null || key.isEmpty() ? text : text.replace(key, "[REDACTED]");
        StringBuilder out = new StringBuilder();
        t.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) || Character.getType(c)
                == Character.FORMAT ? ' ' : c));
        String s = out.toString().strip();
        return s.length() <= MAX_PROVIDER_MESSAGE ? s : s.substring(0, MAX_PROVIDER_MESSAGE) + "...";
    }

    /** Retry-After as seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
    static Long retryAfter(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String h = header.strip();
        try {
            long s = Long.parseLong(h);
            return s < 0 ? null : s;
        } catch (NumberFormatException e) {
            try {
                long s = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(h,
                        DateTimeFormatter.RFC_1123_DATE_TIME)).toSeconds();
                return Math.max(0, s);
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    /** The answer to a request over the bound: nothing was sent. */
    static ToolResult tooLarge(int bytes) {
        return ToolResult.builder().error(ErrorCode.PAYLOAD_TOO_LARGE)
                .text("the request would be " + bytes + " bytes; Jev requests are bounded to " + JevRequest.MAX_BYTES
                        + " bytes (24 KiB): send a smaller state or fewer questions. Nothing was sent.")
                .detail("bytes", bytes).detail("maxBytes", JevRequest.MAX_BYTES).build();
    }
}
