package pi.host.core.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolSearchTest {

    private static final List<ToolSearch.Candidate> TOOLS = List.of(
            new ToolSearch.Candidate("plugin_git_status", "Show the working tree status of a git repository"),
            new ToolSearch.Candidate("plugin_git_log", "Show commit logs"),
            new ToolSearch.Candidate("mcp_fs_read_text_file", "Read a text file"),
            new ToolSearch.Candidate("BrowserPreview", "Open a workspace page in the browser"));

    @Test
    void anExactNameFindsThatToolAlone() {
        assertThat(ToolSearch.search("plugin_git_log", TOOLS)).containsExactly("plugin_git_log");
    }

    @Test
    void aCapabilityQueryRanksNameMatchesFirst() {
        assertThat(ToolSearch.search("git status", TOOLS)).containsExactly("plugin_git_status", "plugin_git_log");
        assertThat(ToolSearch.search("read a file", TOOLS)).first().isEqualTo("mcp_fs_read_text_file");
    }

    @Test
    void nothingMatchesNothing() {
        assertThat(ToolSearch.search("kubernetes", TOOLS)).isEmpty();
        assertThat(ToolSearch.search("a", TOOLS)).isEmpty();
    }

    @Test
    void resultsAreBounded() {
        List<ToolSearch.Candidate> many = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            many.add(new ToolSearch.Candidate("plugin_p_tool" + i, "does things"));
        }
        assertThat(ToolSearch.search("things", many)).hasSize(ToolSearch.MAX_RESULTS);
    }
}
