package pi.host.mcp.internal.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An MCP server's tool as the host offers it: the server's name, a description fit for the model
 * (bounded, control and format characters removed), the input schema as JSON text, the annotations as
 * JSON (shown on the card, never trusted), and the hash of the definition the user approves.
 *
 * <p>The hash covers what the server said, before the description was cleaned: a change the cleaning
 * would hide (an invisible character added) is still a change of definition.
 */
public record ToolDefinition(String name, String description, String summary, String inputSchema,
        String annotations, String hash) {

    /** Most characters of a description offered to the model. */
    public static final int MAX_DESCRIPTION = 4_000;
    /** Most characters of the one-line summary in the on-demand catalog. */
    public static final int MAX_SUMMARY = 160;
    /** Most characters of an input schema taken from a server. */
    public static final int MAX_SCHEMA = 64 * 1024;

    /** Sorted keys: the same definition always hashes the same, whatever order the server wrote it in. */
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

    /**
     * The host's view of {@code tool}.
     *
     * @throws IllegalArgumentException when the tool cannot be offered (no usable schema)
     */
    public static ToolDefinition of(McpSchema.Tool tool) {
        Map<String, Object> schema = tool.inputSchema() == null ? Map.of("type", "object") : tool.inputSchema();
        Object annotations = tool.annotations() == null ? null : CANONICAL.convertValue(tool.annotations(), Map.class);
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("description", tool.description());
        definition.put("inputSchema", schema);
        definition.put("annotations", annotations);
        String schemaText;
        String annotationsText;
        String hash;
        try {
            schemaText = CANONICAL.writeValueAsString(schema);
            annotationsText = annotations == null ? null : CANONICAL.writeValueAsString(withoutNulls(annotations));
            hash = "sha256:" + sha256(CANONICAL.writeValueAsString(definition));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the tool's definition is not JSON: " + e.getOriginalMessage());
        }
        if (schemaText.length() > MAX_SCHEMA) {
            throw new IllegalArgumentException("its input schema is larger than " + MAX_SCHEMA + " characters");
        }
        String description = clean(tool.description() == null ? "" : tool.description(), MAX_DESCRIPTION);
        if (tool.title() != null && !tool.title().isBlank() && description.isEmpty()) {
            description = clean(tool.title(), MAX_DESCRIPTION);
        }
        return new ToolDefinition(tool.name(), description, summary(description), schemaText, annotationsText, hash);
    }

    /**
     * {@code text} without control characters (tab and newline kept) and format characters (bidi
     * overrides, zero-width characters: a description must not hide text from the person reading it),
     * cut to {@code max} characters.
     */
    public static String clean(String text, int max) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), max + 1));
        for (int i = 0; i < text.length() && out.length() <= max; ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            boolean drop = cp == '\r' || (type == Character.CONTROL && cp != '\n' && cp != '\t')
                    || type == Character.FORMAT || type == Character.UNASSIGNED || type == Character.PRIVATE_USE
                    || type == Character.SURROGATE;
            if (!drop) {
                out.appendCodePoint(cp);
            }
        }
        if (out.length() > max) {
            int cut = max - 3;
            if (Character.isHighSurrogate(out.charAt(cut - 1))) {
                cut--;
            }
            out.setLength(cut);
            out.append("...");
        }
        return out.toString().strip();
    }

    private static String summary(String description) {
        int nl = description.indexOf('\n');
        return clean(nl < 0 ? description : description.substring(0, nl), MAX_SUMMARY);
    }

    @SuppressWarnings("unchecked")
    private static Object withoutNulls(Object annotations) {
        Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) annotations);
        out.values().removeIf(java.util.Objects::isNull);
        return out;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has SHA-256", e);
        }
    }
}
