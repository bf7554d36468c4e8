package pi.host.core.internal.markdown;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * A Markdown file with a YAML front matter between {@code ---} lines, as subagent definitions and
 * skills are written: the front matter as a JSON tree (strict: no duplicate keys, few aliases, bounded)
 * and the body. A file that has none, or a broken one, is a problem to report, never an exception.
 */
public final class FrontMatter {

    /** The largest file read as a definition or a skill. */
    public static final int MAX_FILE_BYTES = 256 * 1024;

    private static final YAMLMapper YAML = yaml();

    /**
     * A parsed file.
     *
     * @param yaml the front matter, an object node, or null when {@code problem} says why there is none
     * @param body the Markdown after the front matter, stripped
     * @param source the front matter's text (for hints about a broken one)
     */
    public record Parsed(JsonNode yaml, String body, String source, String problem) {
        public boolean ok() {
            return problem == null;
        }

        static Parsed problem(String problem, String source) {
            return new Parsed(null, "", source, problem);
        }
    }

    private FrontMatter() {
    }

    private static YAMLMapper yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(20); // a front matter has no use for alias bombs
        options.setCodePointLimit(MAX_FILE_BYTES);
        YAMLMapper mapper = new YAMLMapper(YAMLFactory.builder().loaderOptions(options).build());
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return mapper;
    }

    /** Splits {@code text} (a leading byte order mark is ignored) and parses its front matter. */
    public static Parsed parse(String text) {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        String[] lines = t.split("\r?\n", -1);
        if (lines.length == 0 || !lines[0].strip().equals("---")) {
            return Parsed.problem("no YAML front matter (the file must start with a '---' line)", "");
        }
        int end = -1;
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].strip().equals("---")) {
                end = i;
                break;
            }
        }
        if (end < 0) {
            return Parsed.problem("the YAML front matter is not closed by a '---' line", "");
        }
        List<String> all = Arrays.asList(lines);
        String frontMatter = String.join("\n", all.subList(1, end));
        String body = String.join("\n", all.subList(end + 1, lines.length)).strip();
        JsonNode yaml;
        try {
            yaml = YAML.readTree(frontMatter);
        } catch (JsonProcessingException | RuntimeException e) {
            return Parsed.problem("malformed YAML front matter: " + firstLine(e.getMessage()), frontMatter);
        }
        if (yaml == null || !yaml.isObject()) {
            return Parsed.problem("the YAML front matter is not a mapping of keys", frontMatter);
        }
        return new Parsed(yaml, body, frontMatter, null);
    }

    /**
     * The bytes as UTF-8 text, or null when they are not text: malformed UTF-8, or a NUL byte (a binary
     * file that happens to decode).
     */
    public static String text(byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
