package pi.host.core.internal.delegation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every delegate tool-list rule of spec §10.2, one row each, from the {@code tools:} line of a real
 * front matter to the set the host enforces. Every row resolves against the same session catalog,
 * which holds plugin, MCP, Skill and control tools: a row without {@code inherit} that ends up with
 * any of them would show a delegate gaining a tool because its parent has it.
 */
class DeclaredToolsTest {

    /** A session's catalog keys (deferred plugin/MCP tools included); Write is missing on purpose. */
    private static final Set<String> CATALOG = Set.of("Read", "Glob", "Grep", "BrowserPreview", "Bash", "Edit",
            "TodoWrite", "asktool", "new_context", "ToolSearch", "EnterPlanMode", "EnterGoalMode", "Task",
            "TaskWait", "TaskList", "TaskStop", "Skill", "PluginCheck", "plugin_acme_git", "mcp_fs_read");
    private static final String INHERITED =
            "Bash BrowserPreview Edit Glob Grep PluginCheck Read Skill TodoWrite mcp_fs_read plugin_acme_git";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "~", textBlock = """
        no tools line                     | user    | -                               | Read Glob Grep                       | ~
        tools: null                       | user    | null                            | Read Glob Grep                       | ~
        an empty list                     | user    | []                              | Read Glob Grep                       | ~
        the string *                      | user    | "*"                             | Read Glob Grep BrowserPreview Bash Edit Write | ~
        * inside a list                   | user    | ["*"]                           | Read Glob Grep BrowserPreview Bash Edit Write | ~
        explicit names                    | user    | [Read, Bash]                    | Read Bash                            | ~
        names separated by commas         | project | Read, Grep                      | Read Grep                            | ~
        an unknown name                   | user    | [Read, Frobnicate]              | Read                                 | unknown tool 'Frobnicate'; dropped
        the withdrawn A2A                 | user    | [Read, A2A]                     | Read                                 | 'A2A' is a withdrawn tool; dropped
        the withdrawn Peer                | project | [Peer, Grep]                    | Grep                                 | 'Peer' is a withdrawn tool; dropped
        names match exactly               | user    | [Read, grep]                    | Read                                 | unknown tool 'grep'; dropped
        a plugin name without inherit     | user    | [Read, plugin_acme_git]         | Read                                 | 'plugin_acme_git' is a plugin, MCP or Skill tool
        an MCP name without inherit       | user    | [Glob, mcp_fs_read]             | Glob                                 | 'mcp_fs_read' is a plugin, MCP or Skill tool
        Skill without inherit             | user    | [Skill, Grep]                   | Grep                                 | 'Skill' is a plugin, MCP or Skill tool
        a builtin that is not assignable  | user    | [Read, TodoWrite]               | Read                                 | 'TodoWrite' cannot be assigned to a delegate
        Task is not assignable            | user    | [Read, Task]                    | Read                                 | 'Task' cannot be assigned to a delegate
        nothing usable left               | user    | [A2A, plugin_acme_git]          | Read Glob Grep                       | no usable tool is left
        a non-string entry                | user    | [Read, 3]                       | Read                                 | 3 is not a tool name; dropped
        not a list or a string            | user    | 5                               | Read Glob Grep                       | must be "*", "inherit" or a list
        inherit                           | user    | inherit                         | INHERITED                            | ~
        inherit in a list                 | project | [inherit]                       | INHERITED                            | ~
        inherit with an assignable extra  | user    | [inherit, Write]                | INHERITED Write                      | ~
        inherit with a plugin extra       | user    | [inherit, plugin_other_x]       | INHERITED                            | 'plugin_other_x' is a plugin, MCP or Skill tool
        inherit with the withdrawn Peer   | project | [inherit, Peer]                 | INHERITED                            | 'Peer' is a withdrawn tool
        a builtin does not opt in         | builtin | [inherit, Bash]                 | Bash                                 | builtin definitions do not opt in to 'inherit'
        a builtin inherit-only document   | builtin | inherit                         | Read Glob Grep                       | builtin definitions do not opt in to 'inherit'
        """)
    void resolves(String rule, String source, String tools, String expected, String warning) {
        String frontMatter = "---\nname: d\ndescription: a delegate\n" + ("-".equals(tools) ? "" : "tools: " + tools + "\n")
                + "---\nbody\n";
        DefinitionParser.Parsed parsed = DefinitionParser.parse(frontMatter,
                SubagentSource.parse(source).orElseThrow(), "d.md");
        assertThat(parsed.skipped()).as(rule).isNull();
        SubagentDefinition d = parsed.definition();
        String want = expected.replace("INHERITED", INHERITED);
        assertThat(d.tools().resolve(CATALOG)).as(rule).containsExactlyInAnyOrder(want.split(" "));
        if (warning == null) {
            assertThat(d.warnings()).as(rule).isEmpty();
        } else {
            assertThat(d.warnings()).as(rule).anySatisfy(w -> assertThat(w).contains(warning));
        }
    }

    @Test
    void theInheritedCatalogNeverHoldsTheControlTools() {
        DeclaredTools inherit = new DeclaredTools(true, List.of());
        assertThat(inherit.resolve(CATALOG)).doesNotContainAnyElementsOf(DeclaredTools.NEVER_INHERITED)
                .doesNotContain("Task", "TaskWait", "TaskList", "TaskStop", "EnterPlanMode", "EnterGoalMode",
                        "asktool", "new_context", "ToolSearch");
        assertThat(DeclaredTools.NEVER_INHERITED).hasSize(9);
    }

    @Test
    void withoutInheritTheSessionCatalogIsNeverRead() {
        DeclaredTools explicit = new DeclaredTools(false, List.of("Read"));
        assertThat(explicit.resolve(CATALOG)).containsExactly("Read");
        assertThat(explicit.resolve(Set.of())).containsExactly("Read");
    }

    @Test
    void anInheritOnlyDocumentFollowsTheCatalogItIsGiven() {
        DeclaredTools inherit = new DeclaredTools(true, List.of());
        assertThat(inherit.resolve(Set.of("Read", "plugin_x_y", "ToolSearch"))).containsExactly("Read", "plugin_x_y");
        assertThat(inherit.declared()).containsExactly("inherit");
    }
}
