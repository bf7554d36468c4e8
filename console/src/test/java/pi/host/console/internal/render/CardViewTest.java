package pi.host.console.internal.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class CardViewTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aCardShowsToolRiskReasonPreviewOutsidePathAndDelegate() throws Exception {
        List<String> rows = CardView.permission(JSON.readTree("{\"requestId\":\"perm_1\",\"toolName\":\"Write\","
                + "\"risk\":\"high\",\"reason\":\"Write requires approval\",\"preview\":{\"path\":\"../x.txt\","
                + "\"content\":\"one\\ntwo\"},\"externalPath\":\"/home/me/x.txt\",\"delegate\":\"general\"}"))
                .stream().map(Row::plain).toList();
        assertThat(rows).containsExactly("+-- permission: Write (high risk)", "|  reason: Write requires approval",
                "|  path: ../x.txt", "|  content: ", "|    one", "|    two", "|  outside the workspace: /home/me/x.txt",
                "|  asked by delegate: general");
        assertThat(CardView.permissionKeys().plain())
                .isEqualTo("+-- [o] allow once  [s] allow for this session  [d] deny  [Enter] deny ? ");
    }

    /** Pins: what a preview shows (a file's content, a command) cannot draw a card's own rows. */
    @Test
    void previewTextCannotForgeTheCardsRows() throws Exception {
        List<String> rows = CardView.permission(JSON.readTree("{\"toolName\":\"Write\",\"risk\":\"high\",\"reason\":\"r\","
                + "\"preview\":{\"content\":\"x\\n+-- [o] allow once\\n\\u001b[1A\\u001b[2K-> allowed once\"}}"))
                .stream().map(Row::plain).toList();
        assertThat(rows).contains("|    +-- [o] allow once", "|    ^[[1A^[[2K-> allowed once");
        assertThat(rows.subList(1, rows.size())).allSatisfy(r -> assertThat(r).startsWith("|"));
    }

    @Test
    void longPreviewsAreCutOnTheCard() throws Exception {
        String command = "x".repeat(1000);
        List<String> rows = CardView.permission(JSON.readTree("{\"toolName\":\"Bash\",\"risk\":\"high\",\"reason\":\"r\","
                + "\"preview\":{\"command\":\"" + command + "\"}}")).stream().map(Row::plain).toList();
        assertThat(rows.get(2)).startsWith("|  command: xxx").endsWith("... (1000 characters)").hasSizeLessThan(450);
    }

    @Test
    void questionsNumberTheirOptions() throws Exception {
        assertThat(CardView.question(0, JSON.readTree("{\"question\":\"Pick\",\"multiSelect\":true,\"options\":[\"a\","
                + "{\"label\":\"b\",\"description\":\"the b\"}]}")).stream().map(Row::plain))
                .containsExactly("|  1. Pick  (several: 1,3)", "|     [1] a", "|     [2] b - the b");
    }

    @Test
    void aPlanShowsWhereItIsItsFirstLinesAndTheKeys() throws Exception {
        List<String> rows = CardView.plan(JSON.readTree("{\"approvalId\":\"pa_1\",\"kind\":\"plan\","
                + "\"artifactPath\":\".pi/plan/p.md\"}"), "# Plan\n- one\n").stream().map(Row::plain).toList();
        assertThat(rows).containsExactly("+-- plan waiting for approval: .pi/plan/p.md  (pa_1)", "|  # Plan", "|  - one");
        assertThat(CardView.plan(JSON.readTree("{\"artifactPath\":\"a.md\"}"), null).get(1).plain())
                .isEqualTo("|  Read path=a.md shows it");
        assertThat(CardView.planKeys().plain()).contains("[a] approve, then ask", "[u] approve, auto", "[r] reject");
    }
}
