package pi.host.core.internal.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The one JSON configuration of the host: strict input, bounded nesting, compact output. */
public final class Json {

    /**
     * Deepest nesting accepted on input. Tool arguments are shallow; a client sending thousands of
     * nested arrays is refused by the parser quickly instead of exhausting the stack.
     */
    public static final int MAX_NESTING = 128;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING)
                .build());
    }

    private Json() {
    }

    /** The shared, thread-safe mapper. Do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
