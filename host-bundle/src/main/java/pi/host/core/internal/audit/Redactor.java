package pi.host.core.internal.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Masks secrets before anything is persisted or displayed (spec §8): values of keys that name a
 * credential, strings shaped like well-known credentials wherever they appear, and the host's own
 * saved secrets (the Jev API key) literally, whatever their shape.
 */
public final class Redactor {

    public static final String MASK = "[REDACTED]";

    private static final Pattern SECRET_KEY = Pattern.compile(
            "(?i).*(password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
                    + "|authorization|credential|cookie|session[_-]?key|client[_-]?secret).*");

    /** Credential shapes; each match is replaced, the rest of the string stays readable. */
    private static final Pattern SECRET_VALUE = Pattern.compile(String.join("|",
            "-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)",
            "\\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}",
            "\\bgh[pousr]_[A-Za-z0-9]{30,}",
            "\\bgithub_pat_[A-Za-z0-9_]{30,}",
            "\\bglpat-[A-Za-z0-9_-]{20,}",
            "\\bxox[abposr]-[A-Za-z0-9-]{10,}",
            "\\bAKIA[0-9A-Z]{16}\\b",
            "\\bAIza[0-9A-Za-z_-]{35}\\b",
            "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
            "(?i)\\bbearer\\s+[A-Za-z0-9._~+/=-]{16,}",
            "(?<=://)[^/\\s:@]+:[^/\\s@]+(?=@)"));

    /**
     * Literals at least one of which every {@link #SECRET_VALUE} alternative needs (the
     * case-insensitive "bearer" is checked apart): a string holding none of them cannot match, and
     * skips the regex. Most arguments are such strings, and the regex, tried at every position,
     * was a tenth of a no-op call's CPU time.
     */
    private static final String[] SECRET_VALUE_LITERALS = {"-----BEGIN ", "sk-", "gh", "github_pat_", "glpat-", "xox",
        "AKIA", "AIza", "eyJ", "://"};

    /** Verdicts of {@link #SECRET_KEY} per key: calls repeat the same few argument names. */
    private static final Map<String, Boolean> SECRET_KEYS = new ConcurrentHashMap<>();
    private static final int MAX_CACHED_KEYS = 1024;

    /**
     * The host's own secrets as saved ({@link #maskLiteral}), the most recent last: masked wherever they
     * appear. Replaced whole on a change (rare), so the hot path reads a snapshot without a lock.
     */
    private static volatile List<String> LITERALS = List.of();
    /** Shorter literals are not masked: they would mask ordinary words (the settings refuse such keys). */
    static final int MIN_LITERAL = 8;
    static final int MAX_LITERALS = 16;

    private Redactor() {
    }

    /**
     * Masks {@code secret} literally from now on, wherever it appears (a saved API key has no shape
     * the patterns know). The {@value #MAX_LITERALS} most recently saved or read stay masked, so a key
     * replaced later stays masked too, and the one in use always is.
     */
    public static void maskLiteral(String secret) {
        if (secret == null || secret.length() < MIN_LITERAL) {
            return;
        }
        List<String> now = LITERALS;
        if (!now.isEmpty() && now.get(now.size() - 1).equals(secret)) {
            return; // the common case: the key in use, read again
        }
        synchronized (Redactor.class) {
            List<String> next = new ArrayList<>(LITERALS);
            next.remove(secret);
            next.add(secret);
            while (next.size() > MAX_LITERALS) {
                next.remove(0);
            }
            LITERALS = List.copyOf(next);
        }
    }

    /**
     * {@code node} with its secrets masked: a redacted copy, or {@code node} itself when it holds
     * nothing to mask (most calls; the copy was garbage on every call). The input is not changed.
     */
    public static JsonNode redact(JsonNode node) {
        if (node == null) {
            return null;
        }
        return clean(node) ? node : copy(node);
    }

    /** True when {@link #copy} would give an equal tree. */
    private static boolean clean(JsonNode node) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                JsonNode value = f.getValue();
                if (value.isValueNode() && !value.isNull() && secretKey(f.getKey()) || !clean(value)) {
                    return false;
                }
            }
            return true;
        }
        if (node.isArray()) {
            for (JsonNode e : node) {
                if (!clean(e)) {
                    return false;
                }
            }
            return true;
        }
        return !node.isTextual() || !mayHoldSecret(node.textValue())
                || !SECRET_VALUE.matcher(node.textValue()).find() && !holdsLiteral(node.textValue());
    }

    private static JsonNode copy(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                boolean secret = f.getValue().isValueNode() && !f.getValue().isNull() && secretKey(f.getKey());
                out.set(f.getKey(), secret ? TextNode.valueOf(MASK) : copy(f.getValue()));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(e -> out.add(copy(e)));
            return out;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(redact(node.textValue()));
        }
        return node;
    }

    /** A string with every credential-shaped part masked. */
    public static String redact(String text) {
        if (!mayHoldSecret(text)) {
            return text;
        }
        String out = text;
        for (String literal : LITERALS) {
            out = out.replace(literal, MASK);
        }
        return SECRET_VALUE.matcher(out).replaceAll(MASK);
    }

    private static boolean holdsLiteral(String text) {
        for (String literal : LITERALS) {
            if (text.contains(literal)) {
                return true;
            }
        }
        return false;
    }

    private static boolean secretKey(String key) {
        Boolean known = SECRET_KEYS.get(key);
        if (known != null) {
            return known;
        }
        boolean secret = SECRET_KEY.matcher(key).matches();
        if (SECRET_KEYS.size() < MAX_CACHED_KEYS) {
            SECRET_KEYS.put(key, secret);
        }
        return secret;
    }

    /** False only when no {@link #SECRET_VALUE} alternative and no saved secret can match {@code text}. */
    static boolean mayHoldSecret(String text) {
        if (!LITERALS.isEmpty() && holdsLiteral(text)) {
            return true;
        }
        for (String literal : SECRET_VALUE_LITERALS) {
            if (text.contains(literal)) {
                return true;
            }
        }
        for (int i = text.length() - 6; i >= 0; i--) {
            if (text.regionMatches(true, i, "bearer", 0, 6)) {
                return true;
            }
        }
        return false;
    }
}
