package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The last line of defence on a result's size (issue 13.7): the whole envelope is bounded, not only its
 * text. Text keeps its head and tail ({@link OutputLimits}); {@code details} (a plugin's structured
 * content included) is cut to {@link #MAX_DETAILS} characters of JSON (long strings keep head and tail); review records to
 * {@link #MAX_REVIEW}, their hunks dropped from the last record first (the record says
 * {@code truncated}, and stays reversible through its snapshot) and records past the bound left out.
 * A cut result says {@code truncated: true} and ends with a text block naming what was cut. Tools page
 * and bound their own output; this only stops a provider from flooding the client and the model.
 */
final class ResultBounds {

    /**
     * Most characters of JSON the details may take: room for the builtins' own bounded details (Bash's
     * two streams of 64 Ki characters each, newlines escaped) with a margin.
     */
    static final int MAX_DETAILS = 512 * 1024;
    /** Most characters of JSON the review records may take. */
    static final int MAX_REVIEW = 256 * 1024;
    /** Most characters of text, in all blocks together (the note included). */
    static final int MAX_TEXT = OutputLimits.MAX_RESULT_CHARS;

    private ResultBounds() {
    }

    /** {@code r} itself when it fits, else a cut copy that says what was cut. */
    static ResultEnvelope bound(ResultEnvelope r) {
        boolean detailsFit = r.details().isEmpty() || JsonBudget.size(r.details(), MAX_DETAILS) <= MAX_DETAILS;
        boolean reviewFits = r.review().isEmpty() || JsonBudget.size(r.review(), MAX_REVIEW) <= MAX_REVIEW;
        boolean[] textCut = {false};
        List<String> text = OutputLimits.bound(r.text(), MAX_TEXT, textCut);
        if (detailsFit && reviewFits && !textCut[0]) {
            return r;
        }
        List<String> notes = new ArrayList<>();
        if (textCut[0]) {
            notes.add("the text kept its first and last " + MAX_TEXT / 2 + " characters");
        }
        ObjectNode details = r.details();
        if (!detailsFit) {
            JsonBudget.Cut cut = JsonBudget.cut(details, MAX_DETAILS, "details");
            details = cut.value();
            // the cut's accounting is close, not exact: the bound is
            while (details.size() > 0 && JsonBudget.size(details, MAX_DETAILS) > MAX_DETAILS) {
                details.remove(lastField(details));
            }
            notes.add("details cut to " + MAX_DETAILS + " characters of JSON (" + String.join("; ", cut.notes())
                    + (cut.unnoted() > 0 ? "; " + cut.unnoted() + " more cuts" : "") + ")");
        }
        ArrayNode review = reviewFits ? r.review() : review(r.review(), notes);
        List<String> blocks = new ArrayList<>(text);
        String note = "[result cut to fit the host's bounds: " + String.join("; ", notes) + "]";
        blocks.add(note);
        if (!textCut[0]) {
            // the note must fit too: re-bound text and note together
            blocks = OutputLimits.bound(blocks, MAX_TEXT + note.length(), new boolean[1]);
        }
        return new ResultEnvelope(r.errorCode(), blocks, details, r.root(), r.path(), r.traceId(), true, review,
                r.terminate());
    }

    private static String lastField(ObjectNode o) {
        String last = null;
        for (java.util.Iterator<String> names = o.fieldNames(); names.hasNext();) {
            last = names.next();
        }
        return last;
    }

    /** Review records within the bound: hunks dropped from the last record first, then records left out. */
    private static ArrayNode review(ArrayNode records, List<String> notes) {
        ArrayNode out = records.deepCopy();
        int stripped = 0;
        for (int i = out.size() - 1; i >= 0 && JsonBudget.size(out, MAX_REVIEW) > MAX_REVIEW; i--) {
            JsonNode rec = out.get(i);
            if (rec instanceof ObjectNode && rec.path("hunks").size() > 0) {
                ((ObjectNode) rec).set("hunks", JsonNodeFactory.instance.arrayNode());
                ((ObjectNode) rec).put("truncated", true);
                stripped++;
            }
        }
        int before = out.size();
        while (out.size() > 0 && JsonBudget.size(out, MAX_REVIEW) > MAX_REVIEW) {
            out.remove(out.size() - 1);
        }
        notes.add("review: " + (stripped > 0 ? stripped + " records without their hunks (marked truncated)" : "")
                + (out.size() < before ? (stripped > 0 ? ", " : "") + (before - out.size()) + " of " + before
                        + " records left out" : ""));
        return out;
    }
}
