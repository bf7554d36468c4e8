package pi.host.tools.internal.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import pi.host.api.ToolResult;

class NewContextToolTest {

    @Test
    void setsTheNewContextFlagAndNothingElse() {
        ToolResult result = new NewContextTool().execute(null);

        assertThat(result.ok()).isTrue();
        assertThat(result.details()).containsExactly(org.assertj.core.api.Assertions.entry(NewContextTool.FLAG, true));
    }

    @Test
    void schemaTakesNoParameters() {
        assertThat(new NewContextTool().inputSchema()).contains("\"additionalProperties\":false")
                .contains("\"properties\":{}");
    }
}
