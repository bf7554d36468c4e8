package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.json.JsonText;

/**
 * A result envelope, a batch's results and a {@code tool.completed} written field by field (how
 * {@code tools.execute} and {@code tools.executeBatch} answer and every call ends) give byte for byte the
 * text their trees gave: the protocol's bytes, which the desktop and the protocol tests read, do not
 * change. The reference is the tree the host built for them before (PROTOCOL.md's fields, in order).
 */
class StreamedResultTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The envelope as the host answered it with a tree, field by field as PROTOCOL.md lists them. */
    private static ObjectNode tree(ResultEnvelope r) {
        ObjectNode o = NODES.objectNode();
        o.put("ok", r.ok());
        o.put("isError", !r.ok());
        o.put("errorCode", r.errorCode() == null ? null : r.errorCode().name());
        ArrayNode content = o.putArray("content");
        r.text().forEach(t -> content.addObject().put("type", "text").put("text", t));
        o.set("details", r.details());
        if (r.root() != null) {
            o.put("root", r.root());
        }
        if (r.path() != null) {
            o.put("path", r.path());
        }
        o.put("traceId", r.traceId());
        o.put("truncated", r.truncated());
        o.set("review", r.review());
        o.put("terminate", r.terminate());
        return o;
    }

    private static String treeText(ResultEnvelope r) throws Exception {
        return Json.mapper().writeValueAsString(tree(r));
    }

    private static ResultEnvelope read() {
        ObjectNode details = NODES.objectNode().put("lines", 10).put("totalLines", 12).put("encoding", "utf-8");
        return new ResultEnvelope(null, List.of("1\tline one\n2\tline \"two\"\t€ 😀\n"), details, "workspace",
                "src/a b.txt", "t-00001", false, NODES.arrayNode(), false);
    }

    private static ResultEnvelope edited() {
        ArrayNode review = NODES.arrayNode();
        review.addObject().put("path", "x.txt").put("snapshot", "s1").putArray("hunks").addObject().put("oldStart", 1)
                .put("diff", "-a\n+b\n");
        ObjectNode details = NODES.objectNode();
        details.putObject("nested").putArray("list").add(1.5).add(1L << 40).addNull().add(true);
        return new ResultEnvelope(null, List.of("first", "", "third\u0001"), details, null, "x.txt", "t-2", true,
                review, true);
    }

    private static String streamed(ResultEnvelope r) throws Exception {
        return JsonText.write(r);
    }

    @Test
    void aReadsResultIsWrittenToItsTreesBytes() throws Exception {
        ResultEnvelope r = read();

        assertThat(streamed(r)).isEqualTo(treeText(r));
    }

    @Test
    void aResultWithReviewRecordsDetailsAndNoRootIsWrittenToItsTreesBytes() throws Exception {
        ResultEnvelope r = edited();

        assertThat(streamed(r)).isEqualTo(treeText(r));
    }

    @Test
    void anErrorWithoutATraceIdIsWrittenToItsTreesBytes() throws Exception {
        List<ResultEnvelope> errors = List.of(ResultEnvelope.error(ErrorCode.TOOL_DENIED, "denied: \"x\"\n", "t-3"),
                ResultEnvelope.error(ErrorCode.INVALID_ARGUMENT, "bad", null),
                ResultEnvelope.error(ErrorCode.TOOL_TIMEOUT, "late", "t-4").withDetail("timeoutMs",
                        NODES.numberNode(120_000)));

        for (ResultEnvelope r : errors) {
            assertThat(streamed(r)).as("%s", r).isEqualTo(treeText(r));
        }
    }

    @Test
    void aBatchsResultsAreWrittenToTheirTreesBytes() throws Exception {
        List<ResultEnvelope> results = List.of(read(), edited(), ResultEnvelope.error(ErrorCode.TOOL_DENIED, "no", "t"));
        ObjectNode tree = NODES.objectNode();
        ArrayNode all = tree.putArray("results");
        results.forEach(r -> all.add(tree(r)));

        assertThat(JsonText.write(new ToolMethods.BatchResults(results))).isEqualTo(Json.mapper().writeValueAsString(tree));
    }

    @Test
    void theEnvelopesTreeIsTheOneItWrites() {
        for (ResultEnvelope r : List.of(read(), edited(), ResultEnvelope.error(ErrorCode.TOOL_ABORTED, "x", null))) {
            assertThat(r.toJson()).isEqualTo(tree(r));
        }
    }

    @Test
    void toolCompletedIsWrittenAsItsTreeWas() throws Exception {
        for (String code : new String[] {null, "TOOL_FAILED"}) {
            ObjectNode tree = NODES.objectNode();
            tree.put("sessionId", "s-1").put("toolCallId", "call \"1\"").put("ok", code == null).put("errorCode", code);

            String text = JsonText.write(new ToolCompleted("s-1", "call \"1\"", code == null, code));

            assertThat(text).isEqualTo(Json.mapper().writeValueAsString(tree));
        }
    }
}
