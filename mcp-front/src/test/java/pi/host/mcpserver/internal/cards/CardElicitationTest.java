package pi.host.mcpserver.internal.cards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CardElicitationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static McpSchema.ElicitResult answer(McpSchema.ElicitResult.Action action, Map<String, Object> content) {
        return new McpSchema.ElicitResult(action, content);
    }

    /** Pins: a card is allowed only by an accepted form naming one of the three decisions; anything else denies. */
    @Test
    void onlyAnAcceptedChoiceAllowsEverythingElseDenies() {
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.ACCEPT,
                Map.of("decision", "allow-once")))).isEqualTo("allow-once");
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.ACCEPT,
                Map.of("decision", "allow-session")))).isEqualTo("allow-session");
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.ACCEPT,
                Map.of("decision", "deny")))).isEqualTo("deny");
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.DECLINE, null))).isEqualTo("deny");
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.CANCEL, null))).isEqualTo("deny");
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.ACCEPT, null))).isEqualTo("deny");
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.ACCEPT,
                Map.of("decision", "allow-always")))).isEqualTo("deny");
        assertThat(CardElicitation.decision(answer(McpSchema.ElicitResult.Action.ACCEPT,
                Map.of("decision", 1)))).isEqualTo("deny");
        assertThat(CardElicitation.decision(null)).isEqualTo("deny");
    }

    /** Pins: a client is asked only when it declared form elicitation (an empty object means form). */
    @Test
    void onlyAClientThatDeclaredFormElicitationIsAsked() {
        assertThat(CardElicitation.supportsForms(null)).isFalse();
        assertThat(CardElicitation.supportsForms(new McpSchema.ClientCapabilities(null, null, null, null))).isFalse();
        assertThat(CardElicitation.supportsForms(new McpSchema.ClientCapabilities(null, null, null,
                new McpSchema.ClientCapabilities.Elicitation()))).isTrue();
        assertThat(CardElicitation.supportsForms(new McpSchema.ClientCapabilities(null, null, null,
                new McpSchema.ClientCapabilities.Elicitation(null, new McpSchema.ClientCapabilities.Elicitation.Url()))))
                .isFalse();
    }

    @Test
    void theFormShowsTheCardAndAsksForOneOfThreeChoices() throws Exception {
        JsonNode card = JSON.readTree("{\"requestId\":\"perm_1\",\"toolName\":\"Write\",\"risk\":\"high\","
                + "\"reason\":\"Write needs approval\",\"preview\":{\"path\":\"/etc/x\",\"content\":\"y\"},"
                + "\"externalPath\":\"/etc/x\",\"delegate\":null}");
        McpSchema.ElicitFormRequest form = CardElicitation.request(card);
        assertThat(form.message()).contains("Write (high risk)").contains("Reason: Write needs approval")
                .contains("Outside the workspace: /etc/x").contains("\"content\":\"y\"");
        assertThat(form.requestedSchema().get("required")).isEqualTo(java.util.List.of("decision"));
        assertThat(JSON.valueToTree(form.requestedSchema()).toString())
                .contains("\"const\":\"allow-once\"").contains("\"const\":\"allow-session\"").contains("\"const\":\"deny\"");
        assertThat(((Map<?, ?>) form.meta().get("pi-host/card")).get("requestId")).isEqualTo("perm_1");
    }

    @Test
    void aLongPreviewIsCutInTheMessage() throws Exception {
        JsonNode card = JSON.readTree("{\"toolName\":\"Write\",\"risk\":\"high\",\"reason\":\"r\",\"preview\":{\"content\":\""
                + "x".repeat(10_000) + "\"}}");
        assertThat(CardElicitation.message(card).length()).isLessThan(CardElicitation.MAX_PREVIEW_CHARS + 200);
    }
}
