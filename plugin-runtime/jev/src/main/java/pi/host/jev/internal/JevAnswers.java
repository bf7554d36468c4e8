package pi.host.jev.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The provider's answer to a {@link JevRequest}, checked against what was asked: every question answered
 * exactly by its type (a {@code noul} probability in [0, 1] for boolean, one of the options for enum and
 * string, a level index in range for number); answers to ids that were not asked are ignored. Anything else
 * is a malformed response: the provider's text never reaches the model as an answer.
 */
final class JevAnswers {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A response that is not what was asked for. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The checked answers.
     *
     * @param answers one per question, in the order asked: {@code id}, {@code type}, {@code value} and
     *     {@code probability} (boolean) or {@code confidence} (the others, when reported)
     * @param usage {@code inputTokens} and {@code outputTokens} as reported (absent when not)
     * @param model the model that answered, when reported
     */
    record Checked(List<Map<String, Object>> answers, Map<String, Object> usage, String model) {
    }

    private JevAnswers() {
    }

    static Checked check(List<Question> asked, byte[] body) throws Malformed {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new Malformed("the response is not JSON");
        } catch (java.io.IOException e) {
            throw new Malformed("the response cannot be read");
        }
        if (root == null || !root.isObject() || !root.path("answers").isObject()) {
            throw new Malformed("the response has no answers object");
        }
        JsonNode answers = root.get("answers");
        List<Map<String, Object>> out = new ArrayList<>();
        for (Question q : asked) {
            JsonNode a = answers.get(q.id());
            if (a == null || !a.isObject() || !q.type().wire.equals(a.path("type").asText())) {
                throw new Malformed("question '" + q.id() + "' has no " + q.type().wire + " answer");
            }
            out.add(answer(q, a));
        }
        Map<String, Object> usage = new LinkedHashMap<>();
        JsonNode u = root.path("usage");
        putCount(usage, "inputTokens", u.get("input_tokens"));
        putCount(usage, "outputTokens", u.get("output_tokens"));
        JsonNode model = root.get("model");
        return new Checked(List.copyOf(out), usage, model != null && model.isTextual() ? model.textValue() : null);
    }

    private static Map<String, Object> answer(Question q, JsonNode a) throws Malformed {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", q.id());
        out.put("type", q.type().word());
        switch (q.type()) {
            case BOOLEAN: {
                double p = unit(q, a.get("noul"), "noul");
                out.put("value", p >= 0.5);
                out.put("probability", p);
                return out;
            }
            case NUMBER: {
                JsonNode score = a.get("score");
                if (score == null || !score.isNumber() || score.doubleValue() < 0
                        || score.doubleValue() > q.options().size() - 1) {
                    throw new Malformed("question '" + q.id() + "': score is not a level index from 0 to "
                            + (q.options().size() - 1));
                }
                out.put("value", score.numberValue());
                break;
            }
            default: {
                JsonNode choice = a.get("choice");
                if (choice == null || !choice.isTextual() || !q.options().contains(choice.textValue())) {
                    throw new Malformed("question '" + q.id() + "': choice is not one of its options");
                }
                out.put("value", choice.textValue());
                break;
            }
        }
        JsonNode confidence = a.get("confidence");
        if (confidence != null && !confidence.isNull()) {
            out.put("confidence", unit(q, confidence, "confidence"));
        }
        return out;
    }

    private static double unit(Question q, JsonNode n, String field) throws Malformed {
        if (n == null || !n.isNumber() || n.doubleValue() < 0 || n.doubleValue() > 1) {
            throw new Malformed("question '" + q.id() + "': " + field + " is not a number from 0 to 1");
        }
        return n.doubleValue();
    }

    private static void putCount(Map<String, Object> usage, String key, JsonNode n) {
        if (n != null && n.canConvertToLong() && n.isIntegralNumber() && n.longValue() >= 0) {
            usage.put(key, n.longValue());
        }
    }
}
