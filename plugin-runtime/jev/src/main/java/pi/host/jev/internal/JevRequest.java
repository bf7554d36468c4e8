package pi.host.jev.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The request JevClassify sends (docs/protocol.md "JevClassify: the wire format"): TypeSafe's System One
 * evaluation body, {@code {"model":"jev-latest","state":{...},"questions":{"<id>":{"type","instructions",
 * "criteria"}}}}. Built from arguments the schema already checked; what the schema cannot say (unique
 * ids, options per type) is checked here, and the serialized body is bounded before anything is sent.
 */
final class JevRequest {

    static final String MODEL = "jev-latest";
    /** The largest body sent (spec §2.1: the payload is bounded to 24 KiB). */
    static final int MAX_BYTES = 24 * 1024;
    /** System One takes 2 to 10 levels for a score. */
    static final int MIN_LEVELS = 2;
    static final int MAX_LEVELS = 10;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Arguments that cannot make a request (INVALID_ARGUMENT). */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    private final List<Question> questions;
    private final byte[] body;

    private JevRequest(List<Question> questions, byte[] body) {
        this.questions = questions;
        this.body = body;
    }

    List<Question> questions() {
        return questions;
    }

    /** The body as it goes on the wire (UTF-8 JSON). */
    byte[] body() {
        return body.clone();
    }

    int size() {
        return body.length;
    }

    boolean tooLarge() {
        return body.length > MAX_BYTES;
    }

    /** True when {@code secret} appears anywhere in the body (in a string or a name, as JSON writes it). */
    boolean carries(String secret) {
        String written = new String(JsonStringEncoder.getInstance().quoteAsString(secret));
        return new String(body, StandardCharsets.UTF_8).contains(written);
    }

    /** The request for validated arguments ({@code state}: an object; {@code questions}: the typed list). */
    static JevRequest of(Map<String, Object> arguments) throws Invalid {
        List<Question> questions = questions(arguments.get("questions"));
        ObjectNode root = JSON.createObjectNode();
        root.put("model", MODEL);
        root.set("state", JSON.valueToTree(arguments.get("state")));
        ObjectNode wire = root.putObject("questions");
        for (Question q : questions) {
            ObjectNode one = wire.putObject(q.id());
            one.put("type", q.type().wire);
            one.put("instructions", q.text());
            if (q.type() == Question.Type.NUMBER) {
                ArrayNode levels = one.putArray("criteria");
                q.options().forEach(levels::add);
            } else if (q.type() != Question.Type.BOOLEAN) {
                ObjectNode criteria = one.putObject("criteria");
                q.options().forEach(o -> criteria.put(o, o));
            }
        }
        try {
            return new JevRequest(questions, JSON.writeValueAsBytes(root));
        } catch (JsonProcessingException e) {
            throw new Invalid("the arguments cannot be written as JSON: " + e.getOriginalMessage());
        }
    }

    /** Checks the questions' ids and options beyond their schema. */
    static List<Question> questions(Object raw) throws Invalid {
        if (!(raw instanceof List)) {
            throw new Invalid("questions must be an array");
        }
        List<Question> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Object o : (List<?>) raw) {
            Map<?, ?> q = (Map<?, ?>) o;
            String id = (String) q.get("id");
            Question.Type type = Question.Type.parse((String) q.get("type"));
            if (!ids.add(id)) {
                throw new Invalid("question id '" + id + "' is used twice");
            }
            List<String> options = new ArrayList<>();
            if (q.get("options") instanceof List) {
                for (Object option : (List<?>) q.get("options")) {
                    options.add((String) option);
                }
            }
            if (new HashSet<>(options).size() != options.size()) {
                throw new Invalid("question '" + id + "' lists an option twice");
            }
            if (type == Question.Type.BOOLEAN && !options.isEmpty()) {
                throw new Invalid("question '" + id + "' is boolean: it takes no options");
            }
            if ((type == Question.Type.ENUM || type == Question.Type.STRING) && options.size() < 2) {
                throw new Invalid("question '" + id + "' is " + type.word() + ": give at least two options (the"
                        + " classifier answers with one of them; it never writes text)");
            }
            if (type == Question.Type.NUMBER && (options.size() < MIN_LEVELS || options.size() > MAX_LEVELS)) {
                throw new Invalid("question '" + id + "' is number: give " + MIN_LEVELS + " to " + MAX_LEVELS
                        + " options, the levels of its scale from lowest to highest (the answer is a level index)");
            }
            out.add(new Question(id, (String) q.get("text"), type, options));
        }
        return List.copyOf(out);
    }
}
