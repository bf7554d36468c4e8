package pi.host.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.core.internal.registry.ToolNaming;
import pi.host.core.internal.registry.ToolOrigin;

class ToolKindTest {

    private static final String BUILTINS = """
            Read,           READ
            Glob,           READ
            Grep,           READ
            BrowserPreview, PREVIEW
            Write,          EDIT
            Edit,           EDIT
            Bash,           EXEC
            new_context,    CONTROL
            ToolSearch,     CONTROL
            asktool,        CONTROL
            TodoWrite,      TODO
            EnterPlanMode,  ENTER_PLAN
            EnterGoalMode,  ENTER_GOAL
            SubmitPlan,     SUBMIT_PLAN
            SubmitGoal,     SUBMIT_GOAL
            Task,           TASK
            TaskWait,       TASK
            TaskList,       TASK
            TaskStop,       TASK
            PluginCheck,    PLUGIN_TOOLING
            PluginScaffold, PLUGIN_TOOLING
            PluginPack,     PLUGIN_TOOLING
            JevClassify,    JEV
            Skill,          SKILL
            """;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(textBlock = BUILTINS)
    void builtinsByName(String name, ToolKind kind) {
        assertThat(ToolKind.of(ToolOrigin.BUILTIN, name)).isEqualTo(kind);
    }

    /** Guards against a builtin being added to the registry without a policy kind. */
    @Test
    void everyReservedBuiltinNameHasAKindAndThisTableCoversExactlyThem() {
        Set<String> tabled = BUILTINS.lines().map(l -> l.split(",")[0].trim()).collect(Collectors.toSet());
        assertThat(tabled).isEqualTo(ToolNaming.BUILTIN_NAMES);
        for (String name : ToolNaming.BUILTIN_NAMES) {
            assertThat(ToolKind.of(ToolOrigin.BUILTIN, name)).isNotNull();
        }
    }

    @Test
    void everyKindIsReachable() {
        Set<ToolKind> reached = new HashSet<>();
        ToolNaming.BUILTIN_NAMES.forEach(n -> reached.add(ToolKind.of(ToolOrigin.BUILTIN, n)));
        reached.add(ToolKind.of(ToolOrigin.PLUGIN, "x"));
        reached.add(ToolKind.of(ToolOrigin.MCP, "x"));
        assertThat(reached).containsExactlyInAnyOrder(ToolKind.values());
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"GenerateImages", "read", "bash", "READ", " Read", "plugin_x_y", "mcp_s_t"})
    void unknownBuiltinNameIsAHostBug(String name) {
        assertThatThrownBy(() -> ToolKind.of(ToolOrigin.BUILTIN, name))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A plugin or MCP tool named like a builtin is still a plugin or MCP tool. */
    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"Read", "Write", "SubmitPlan", "anything"})
    void pluginAndMcpToolsAreClassifiedByOriginOnly(String name) {
        assertThat(ToolKind.of(ToolOrigin.PLUGIN, name)).isEqualTo(ToolKind.PLUGIN);
        assertThat(ToolKind.of(ToolOrigin.MCP, name)).isEqualTo(ToolKind.MCP);
    }

    @Test
    void originIsRequired() {
        assertThatThrownBy(() -> ToolKind.of(null, "Read")).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest
    @EnumSource(ToolKind.class)
    void slugIsLowerCaseWithDashes(ToolKind kind) {
        assertThat(kind.slug()).matches("[a-z]+(-[a-z]+)*");
        assertThat(Arrays.stream(ToolKind.values()).filter(k -> k.slug().equals(kind.slug()))).hasSize(1);
    }

    @Test
    void slugExamples() {
        assertThat(ToolKind.SUBMIT_PLAN.slug()).isEqualTo("submit-plan");
        assertThat(ToolKind.PLUGIN_TOOLING.slug()).isEqualTo("plugin-tooling");
        assertThat(ToolKind.EDIT.slug()).isEqualTo("edit");
    }
}
