package pi.host.core.internal.delegation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import pi.host.api.ErrorCode;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.policy.Admission;
import pi.host.core.internal.policy.ModeMatrix;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.ToolKind;

/**
 * Task's availability (mode × definition count, in the pipeline's order: the mode matrix, then the
 * delegation rules) and the delegate scope the pipeline enforces, over real definition files.
 */
class DelegateScopeTest {

    /** What the Agent catalog offers; Plan's has no Edit/Write/TodoWrite and no MCP tool. */
    private static final Set<String> AGENT_CATALOG = Set.of("Read", "Glob", "Grep", "Bash", "Edit", "Write",
            "TodoWrite", "ToolSearch", "Task", "plugin_acme_git", "mcp_fs_read");
    private static final Set<String> PLAN_CATALOG = Set.of("Read", "Glob", "Grep", "Bash", "ToolSearch",
            "plugin_acme_git");

    @TempDir
    Path user;
    @TempDir
    Path projectDir;

    private Path agents;
    private SessionRecord session;

    @BeforeEach
    void project() throws IOException {
        Path root = projectDir.toRealPath();
        agents = Files.createDirectories(root.resolve(".pi/agents"));
        session = new SessionRecord("s1", root.toString(), root.toString(), false, "agent", "ask", false, 0, 0, null);
    }

    private static DelegateScope scope(Path userDir, String... builtins) {
        List<SubagentDefinition> shipped = java.util.Arrays.stream(builtins).map(n -> DefinitionParser.parse(
                "---\nname: " + n + "\ndescription: builtin " + n + "\n---\n", SubagentSource.BUILTIN, n).definition())
                .toList();
        return new DelegateScope(Subagents.of(new DefinitionLoader(shipped, List.of()), userDir,
                mode -> mode == OperatingMode.AGENT ? AGENT_CATALOG : PLAN_CATALOG));
    }

    private void project(String name, String frontMatter) throws IOException {
        Files.writeString(agents.resolve(name + ".md"), "---\nname: " + name + "\ndescription: the " + name + "\n"
                + frontMatter + "---\nbody\n");
    }

    /** What the pipeline answers a direct Task call: the matrix first, then the delegation rules. */
    private static String taskCall(DelegateScope scope, SessionRecord s, OperatingMode mode) {
        Admission a = ModeMatrix.admit(mode, ToolKind.TASK, false);
        if (!a.admitted()) {
            return a.code().name();
        }
        DelegateScope.Verdict v = scope.check(s, mode, "Task", null, null);
        return v.refused() ? v.code().name() : "runs";
    }

    @ParameterizedTest(name = "{0} with {1} definition(s)")
    @CsvSource(textBlock = """
        AGENT, 0, UNKNOWN_TOOL
        AGENT, 1, runs
        AGENT, 2, runs
        PLAN,  0, MODE_DENIED
        PLAN,  1, MODE_DENIED
        GOAL,  0, MODE_DENIED
        GOAL,  2, MODE_DENIED
        """)
    void taskIsOfferedOnlyInAgentAndOnlyWithADefinition(OperatingMode mode, int definitions, String expected)
            throws IOException {
        for (int i = 0; i < definitions; i++) {
            project("d" + i, "");
        }
        DelegateScope scope = scope(user.resolve("none"));
        assertThat(taskCall(scope, session, mode)).isEqualTo(expected);
        Catalog.Listing listing = scope.offer(session, listing("Read", "Task"));
        boolean listed = listing.tools().stream().anyMatch(t -> "Task".equals(t.name()));
        assertThat(listed).as("tools.list offers Task").isEqualTo(definitions > 0);
    }

    @Test
    void aBuiltinAloneMakesTaskAvailable() {
        assertThat(taskCall(scope(user, "explorer"), session, OperatingMode.AGENT)).isEqualTo("runs");
    }

    @Test
    void taskRefusedWithoutDefinitionsSaysWhy() {
        DelegateScope.Verdict v = scope(user).check(session, OperatingMode.AGENT, "Task", null, null);
        assertThat(v.code()).isEqualTo(ErrorCode.UNKNOWN_TOOL);
        assertThat(v.rule()).isEqualTo("catalog.task-no-definitions");
        assertThat(v.message()).contains("no subagent definitions");
    }

    @Test
    void theSessionsOwnCallsAreNotTouched() {
        DelegateScope.Verdict v = scope(user).check(session, OperatingMode.AGENT, "Write", null, null);
        assertThat(v).isEqualTo(DelegateScope.Verdict.NONE);
    }

    @Test
    void tasksListedDescriptionNamesTheSubagents() throws IOException {
        project("reviewer", "");
        Catalog.Listing listing = scope(user, "explorer").offer(session, listing("Task"));
        assertThat(listing.tools()).singleElement().satisfies(t -> assertThat(t.description())
                .endsWith("\n\nSubagents:\n- explorer: builtin explorer\n- reviewer: the reviewer"));
    }

    @ParameterizedTest(name = "{0}: {2} → {3}")
    @CsvSource(delimiter = '|', nullValues = "~", textBlock = """
        reviewer  | project | Read             | in scope
        reviewer  | project | Grep             | in scope
        reviewer  | project | Write            | TOOL_DENIED delegate.scope
        reviewer  | project | Bash             | TOOL_DENIED delegate.scope
        reviewer  | project | plugin_acme_git  | TOOL_DENIED delegate.scope
        reviewer  | project | Task             | TOOL_DENIED delegate.scope
        reviewer  | user    | Read             | TOOL_DENIED delegate.unknown
        reviewer  | builtin | Read             | TOOL_DENIED delegate.unknown
        reviewer  | peer    | Read             | TOOL_DENIED delegate.source
        nobody    | project | Read             | TOOL_DENIED delegate.unknown
        inheritor | project | plugin_acme_git  | in scope
        inheritor | project | mcp_fs_read      | in scope
        inheritor | project | Write            | in scope
        inheritor | project | Task             | TOOL_DENIED delegate.scope
        inheritor | project | ToolSearch       | TOOL_DENIED delegate.scope
        inheritor | project | plugin_gone_x    | TOOL_DENIED delegate.scope
        explorer  | builtin | Read             | in scope
        explorer  | builtin | Bash             | TOOL_DENIED delegate.scope
        """)
    void aDelegateStaysInsideItsDefinitionsTools(String name, String source, String tool, String expected)
            throws IOException {
        project("reviewer", "tools: [Read, Grep]\n");
        project("inheritor", "tools: inherit\n");
        DelegateScope.Verdict v = scope(user, "explorer").check(session, OperatingMode.AGENT, tool, name, source);
        String got = v.refused() ? v.code().name() + " " + v.rule() : v.inScope() ? "in scope" : "no scope";
        assertThat(got).isEqualTo(expected);
        if (v.refused()) {
            assertThat(v.message()).endsWith("nothing ran");
        }
    }

    @Test
    void inheritFollowsTheSessionsCurrentMode() throws IOException {
        project("inheritor", "tools: inherit\n");
        DelegateScope scope = scope(user);
        assertThat(scope.tools(session, OperatingMode.PLAN, "inheritor", "project")).hasValue(
                Set.of("Read", "Glob", "Grep", "Bash", "plugin_acme_git"));
        assertThat(scope.check(session, OperatingMode.PLAN, "Edit", "inheritor", "project").code())
                .isEqualTo(ErrorCode.TOOL_DENIED);
    }

    @Test
    void thePermissionScopeIsTheDefinitionsNeverTheClients() throws IOException {
        project("reviewer", "tools: [Write]\npermission: auto\n");
        Files.writeString(user.resolve("writer.md"), "---\nname: writer\ndescription: w\ntools: [Write]\n"
                + "permission: accept-edits\n---\n");
        DelegateScope scope = scope(user);
        assertThat(scope.check(session, OperatingMode.AGENT, "Write", "reviewer", "project").permission())
                .as("a project definition's scope was dropped at parse time").isNull();
        assertThat(scope.check(session, OperatingMode.AGENT, "Write", "writer", "user").permission())
                .isEqualTo(PermissionMode.ACCEPT_EDITS);
    }

    @Test
    void aDelegatesListHoldsOnlyItsTools() {
        Catalog.Listing full = new Catalog.Listing(List.of(entry("Read"), entry("Write"), entry("plugin_acme_git")),
                List.of(new Catalog.OnDemandEntry("mcp_fs_read", "reads")), 0);
        Catalog.Listing mine = DelegateScope.restrict(full, Set.of("Read", "plugin_acme_git"));
        assertThat(mine.tools()).extracting(Catalog.ToolEntry::name).containsExactly("Read", "plugin_acme_git");
        assertThat(mine.onDemand()).isEmpty();
    }

    private static Catalog.Listing listing(String... names) {
        return new Catalog.Listing(java.util.Arrays.stream(names).map(DelegateScopeTest::entry).toList(), List.of(), 0);
    }

    private static Catalog.ToolEntry entry(String name) {
        return new Catalog.ToolEntry(name, "does " + name, JsonNodeFactory.instance.objectNode(), "low");
    }
}
