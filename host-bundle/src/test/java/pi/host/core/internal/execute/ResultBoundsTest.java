package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.json.Json;

/** Pins issue 13.7: the whole result envelope is bounded, not only its text, and says what was cut. */
class ResultBoundsTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static ResultEnvelope envelope(List<String> text, ObjectNode details, ArrayNode review) {
        return new ResultEnvelope(null, text, details, "workspace", "a.txt", "tr", false, review, false);
    }

    private static int wire(JsonNode n) throws Exception {
        return Json.mapper().writeValueAsString(n).length();
    }

    @Test
    void aResultThatFitsIsTheSameObject() {
        ObjectNode details = NODES.objectNode().put("lines", 3).put("tag", "ABCD");
        ResultEnvelope r = envelope(List.of("ok"), details, NODES.arrayNode());
        assertThat(ResultBounds.bound(r)).isSameAs(r);
    }

    @Test
    void hugeDetailsAreCutToTheBoundAndTheNoteSaysWhatWasCut() throws Exception {
        ObjectNode details = NODES.objectNode().put("count", 5000);
        ArrayNode matches = details.putArray("matches");
        for (int i = 0; i < 5000; i++) {
            matches.addObject().put("file", "src/file" + i + ".java").put("line", i).put("text", "x".repeat(100));
        }
        details.put("blob", "y".repeat(1 << 20));
        ResultEnvelope r = ResultBounds.bound(envelope(List.of("found"), details, NODES.arrayNode()));
        assertThat(r.truncated()).isTrue();
        assertThat(wire(r.details())).isLessThanOrEqualTo(ResultBounds.MAX_DETAILS);
        assertThat(r.details().get("count").asInt()).as("small fields first are kept").isEqualTo(5000);
        assertThat(r.details().get("matches").size()).isBetween(1, 4999);
        assertThat(r.text().get(0)).isEqualTo("found");
        String note = r.text().get(r.text().size() - 1);
        assertThat(note).startsWith("[result cut to fit the host's bounds:").contains("details.matches:")
                .contains("of 5000 items kept");
        assertThat(wire(r.toJson())).isLessThan(ResultBounds.MAX_DETAILS + 4096);
    }

    @Test
    void aLongStringDeepNestingAndALongKeyAreBoundedToo() throws Exception {
        ObjectNode details = NODES.objectNode();
        details.put("k".repeat(100_000), "v");
        ObjectNode deep = details.putObject("deep");
        for (int i = 0; i < 200; i++) {
            deep = deep.putObject("d");
        }
        details.put("s", "\n".repeat(400_000) + "the end"); // escapes count: 2 characters each on the wire
        ResultEnvelope r = ResultBounds.bound(envelope(List.of(), details, NODES.arrayNode()));
        assertThat(wire(r.details())).isLessThanOrEqualTo(ResultBounds.MAX_DETAILS);
        assertThat(r.details().get("s").asText()).as("head and tail").endsWith("the end").contains("characters cut");
        assertThat(r.text().get(r.text().size() - 1).length()).isLessThan(2000);
    }

    @Test
    void reviewRecordsLoseTheirHunksFromTheLastOneFirst() throws Exception {
        ArrayNode review = NODES.arrayNode();
        for (int i = 0; i < 3; i++) {
            ObjectNode rec = review.addObject().put("snapshotId", "sn_" + i).put("reversible", true);
            ArrayNode hunks = rec.putArray("hunks");
            hunks.addObject().put("lines", "z".repeat(200_000));
        }
        ResultEnvelope r = ResultBounds.bound(envelope(List.of("edited"), NODES.objectNode(), review));
        assertThat(r.truncated()).isTrue();
        assertThat(wire(r.review())).isLessThanOrEqualTo(ResultBounds.MAX_REVIEW);
        assertThat(r.review()).hasSize(3);
        assertThat(r.review().get(0).get("hunks").size()).as("the first keeps its hunks").isEqualTo(1);
        assertThat(r.review().get(2).get("hunks").size()).isZero();
        assertThat(r.review().get(2).get("truncated").asBoolean()).isTrue();
        assertThat(r.review().get(2).get("snapshotId").asText()).as("still reversible").isEqualTo("sn_2");
        assertThat(r.text().get(1)).contains("review: 2 records without their hunks");
    }

    @Test
    void textIsBoundedForEveryResultErrorsIncluded() {
        ResultEnvelope error = new ResultEnvelope(pi.host.api.ErrorCode.TOOL_FAILED,
                List.of("plugin failed: " + "e".repeat(1_000_000)), NODES.objectNode(), null, null, "tr", false,
                NODES.arrayNode(), false);
        ResultEnvelope r = ResultBounds.bound(error);
        assertThat(r.truncated()).isTrue();
        assertThat(r.text().stream().mapToInt(String::length).sum()).isLessThan(ResultBounds.MAX_TEXT + 2000);
        assertThat(r.errorCode()).isEqualTo(pi.host.api.ErrorCode.TOOL_FAILED);
        assertThat(String.join("", r.text())).contains("the text kept its first and last");
    }

    @Test
    void theSizeIsTheWireSize() throws Exception {
        JsonNode n = Json.mapper().readTree("{\"a\":[1,2.5,\"x\\\"y\\n\\t\",true,null,{\"b\":\"\\u0001\"}],\"c\":-3}");
        assertThat(JsonBudget.size(n, Long.MAX_VALUE)).isEqualTo(wire(n));
    }

    /** Bash's own bounded output (two streams of 64 Ki characters in details) passes whole. */
    @Test
    void aBuiltinsAlreadyBoundedDetailsAreNotCutAgain() {
        String stream = "y\n".repeat(32 * 1024);
        ObjectNode details = NODES.objectNode().put("exitCode", 0).put("stdout", stream).put("stderr", stream);
        ResultEnvelope r = envelope(List.of(stream), details, NODES.arrayNode());
        assertThat(ResultBounds.bound(r)).isSameAs(r);
    }
}
