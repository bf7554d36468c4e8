package pi.host.core.internal.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The one JSON configuration of the host: strict input, bounded nesting and strings, compact output. */
public final class Json {

    /**
     * Deepest nesting accepted on input. Tool arguments are shallow; a client sending thousands of
     * nested arrays is refused by the parser quickly instead of exhausting the stack.
     */
    public static final int MAX_NESTING = 128;
    /**
     * Longest string value accepted on input, in characters: the default request line bound (16 MiB),
     * so every string a default-sized request line can carry (a Write's content) is accepted, and a
     * host given a larger line bound still refuses a longer string by name.
     */
    public static final int MAX_STRING_CHARS = 16 * 1024 * 1024;
    /** Longest property name accepted on input, in characters (Jackson's default). */
    public static final int MAX_NAME_CHARS = StreamReadConstraints.DEFAULT_MAX_NAME_LEN;
    /** Longest number accepted on input, in characters (Jackson's default). */
    public static final int MAX_NUMBER_CHARS = StreamReadConstraints.DEFAULT_MAX_NUM_LEN;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING)
                .maxStringLength(MAX_STRING_CHARS)
                .maxNameLength(MAX_NAME_CHARS)
                .maxNumberLength(MAX_NUMBER_CHARS)
                .build());
    }

    private Json() {
    }

    /**
     * Which input bound {@code e} reports, in the host's words ("a string value longer than N
     * characters"); Jackson names the bound only by its getter, and reported every one as nesting here
     * before.
     */
    public static String describe(StreamConstraintsException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("getMaxNestingDepth")) {
            return "nesting deeper than " + MAX_NESTING + " levels";
        }
        if (m.contains("getMaxStringLength")) {
            return "a string value longer than " + MAX_STRING_CHARS + " characters";
        }
        if (m.contains("getMaxNameLength")) {
            return "a property name longer than " + MAX_NAME_CHARS + " characters";
        }
        if (m.contains("getMaxNumberLength")) {
            return "a number longer than " + MAX_NUMBER_CHARS + " characters";
        }
        return ErrorText.bound(e.getOriginalMessage());
    }

    /** The shared, thread-safe mapper. Do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
