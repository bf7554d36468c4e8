package pi.host.core.internal.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import pi.host.api.Risk;
import pi.host.spi.ToolKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every combination of kind × risk × permission mode (and an unresolved one) × outside / scratch /
 * grant is checked against the rules below, written the way the spec states them (§4a, §4b, §6,
 * §10): the first matching row gives the expected verdict, rule and source.
 */
class PolicyTest {

    private static final String LOW_BUILTINS = "READ PREVIEW CONTROL TODO ENTER_PLAN ENTER_GOAL SUBMIT_PLAN SUBMIT_GOAL";
    private static final String BY_RISK = "PLUGIN TASK PLUGIN_TOOLING JEV SKILL IMAGES";

    /** kinds | risks | modes | outside | control | scratch | grant | verdict | rule | source; '*' is any, {kind} the slug. */
    private static final String RULES = String.join("\n",
            // fail closed when no mode could be resolved
            "*            | *           | null             | * | * | * | * | DENY  | mode.unresolved       | permission-mode:invalid",
            // §4a: an explicit outside path is checked before anything else
            "*            | *           | auto             | Y | * | * | * | ALLOW | outside.auto          | permission-mode:auto",
            "*            | *           | ask accept-edits | Y | * | * | Y | ALLOW | outside.grant.session | session-grant",
            "*            | *           | ask              | Y | * | * | N | ASK   | outside.ask           | permission-mode:ask",
            "*            | *           | accept-edits     | Y | * | * | N | ASK   | outside.accept-edits  | permission-mode:accept-edits",
            // issue 13.3: repository control files confirm in ask and accept-edits; auto stays auto
            "*            | *           | auto             | N | Y | * | * | ALLOW | control.auto          | permission-mode:auto",
            "*            | *           | ask accept-edits | N | Y | * | Y | ALLOW | control.grant.session | session-grant",
            "*            | *           | ask              | N | Y | * | N | ASK   | control.ask           | permission-mode:ask",
            "*            | *           | accept-edits     | N | Y | * | N | ASK   | control.accept-edits  | permission-mode:accept-edits",
            // §6: low-risk builtins inside the roots auto-allow in every mode
            LOW_BUILTINS + " | * | ask accept-edits auto | N | N | * | * | ALLOW | low-risk.allow | risk:low",
            // §4b: scratch writes are prompt-free in every mode; then the Write/Edit column of §6
            "EDIT         | *           | ask accept-edits auto | N | N | Y | * | ALLOW | edit.scratch     | scratch-root",
            "EDIT         | *           | accept-edits     | N | N | N | * | ALLOW | edit.accept-edits     | permission-mode:accept-edits",
            "EDIT         | *           | auto             | N | N | N | * | ALLOW | edit.auto             | permission-mode:auto",
            "EDIT         | *           | ask              | N | N | N | Y | ALLOW | grant.session         | session-grant",
            "EDIT         | *           | ask              | N | N | N | N | ASK   | edit.ask              | permission-mode:ask",
            // §6: Bash and MCP tools (always medium) are confirmed unless auto
            "EXEC MCP     | *           | auto             | N | N | * | * | ALLOW | {kind}.auto           | permission-mode:auto",
            "EXEC MCP     | *           | ask accept-edits | N | N | * | Y | ALLOW | grant.session         | session-grant",
            "EXEC MCP     | *           | ask              | N | N | * | N | ASK   | {kind}.ask            | permission-mode:ask",
            "EXEC MCP     | *           | accept-edits     | N | N | * | N | ASK   | {kind}.accept-edits   | permission-mode:accept-edits",
            // §6/§11: plugin tools (and the remaining builtins) follow their registered risk
            BY_RISK + " | LOW | ask accept-edits auto | N | N | * | * | ALLOW | {kind}.low-risk | risk:low",
            BY_RISK + " | MEDIUM HIGH | auto        | N | N | * | * | ALLOW | {kind}.auto           | permission-mode:auto",
            BY_RISK + " | MEDIUM HIGH | ask accept-edits | N | N | * | Y | ALLOW | grant.session    | session-grant",
            BY_RISK + " | MEDIUM HIGH | ask         | N | N | * | N | ASK   | {kind}.ask            | permission-mode:ask",
            BY_RISK + " | MEDIUM HIGH | accept-edits | N | N | * | N | ASK  | {kind}.accept-edits   | permission-mode:accept-edits");

    private record Row(int index, Set<String> kinds, Set<String> risks, Set<String> modes, String outside,
            String control, String scratch, String grant, Verdict verdict, String rule, String source) {

        static Row parse(int index, String line) {
            String[] f = Arrays.stream(line.split("\\|")).map(String::trim).toArray(String[]::new);
            return new Row(index, words(f[0]), words(f[1]), words(f[2]), f[3], f[4], f[5], f[6],
                    Verdict.valueOf(f[7]), f[8], f[9]);
        }

        private static Set<String> words(String s) {
            return Set.of(s.split("\\s+"));
        }

        boolean matches(ToolKind kind, Risk risk, PermissionMode mode, boolean out, boolean ctl, boolean scr,
                boolean grant) {
            return any(kinds, kind.name()) && any(risks, risk.name())
                    && any(modes, mode == null ? "null" : mode.wire())
                    && flag(outside, out) && flag(control, ctl) && flag(scratch, scr) && flag(this.grant, grant);
        }

        private static boolean any(Set<String> allowed, String value) {
            return allowed.contains("*") || allowed.contains(value);
        }

        private static boolean flag(String pattern, boolean value) {
            return pattern.equals("*") || pattern.equals(value ? "Y" : "N");
        }
    }

    private static final List<Row> TABLE = parseTable();

    private static List<Row> parseTable() {
        List<Row> rows = new ArrayList<>();
        String[] lines = RULES.split("\n");
        for (int i = 0; i < lines.length; i++) {
            rows.add(Row.parse(i, lines[i]));
        }
        return rows;
    }

    private static Row expected(ToolKind kind, Risk risk, PermissionMode mode, boolean out, boolean ctl, boolean scr,
            boolean g) {
        return TABLE.stream().filter(r -> r.matches(kind, risk, mode, out, ctl, scr, g)).findFirst()
                .orElseThrow(() -> new AssertionError("no rule row for " + kind + " " + risk + " " + mode));
    }

    static Stream<Arguments> everyCombination() {
        List<Arguments> out = new ArrayList<>();
        List<PermissionMode> modes = new ArrayList<>(Arrays.asList(PermissionMode.values()));
        modes.add(null);
        for (ToolKind kind : ToolKind.values()) {
            for (Risk risk : Risk.values()) {
                for (PermissionMode mode : modes) {
                    for (boolean outside : new boolean[] {false, true}) {
                        for (boolean control : new boolean[] {false, true}) {
                            for (boolean scratch : new boolean[] {false, true}) {
                                if (outside && scratch) {
                                    continue; // one path cannot be both; PolicyInput refuses it
                                }
                                for (boolean grant : new boolean[] {false, true}) {
                                    out.add(Arguments.of(kind, risk, mode, outside, control, scratch, grant));
                                }
                            }
                        }
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} outside={3} control={4} scratch={5} grant={6}")
    @MethodSource("everyCombination")
    void everyCell(ToolKind kind, Risk risk, PermissionMode mode, boolean outside, boolean control, boolean scratch,
            boolean grant) {
        Row row = expected(kind, risk, mode, outside, control, scratch, grant);
        Decision d = Policy.decide(new PolicyInput("T", kind, risk, mode, outside, control, scratch, grant));
        assertThat(d.verdict()).as("verdict (rule row %d)", row.index()).isEqualTo(row.verdict());
        assertThat(d.rule()).as("rule (rule row %d)", row.index()).isEqualTo(row.rule().replace("{kind}", kind.slug()));
        assertThat(d.source()).as("source (rule row %d)", row.index()).isEqualTo(row.source());
        assertThat(d.reason()).isNotBlank();
    }

    /** A rule row that no combination reaches is a mistake in the table, so every row must be used. */
    @Test
    void everyRuleRowIsReached() {
        Set<Integer> used = new HashSet<>();
        everyCombination().forEach(a -> {
            Object[] v = a.get();
            used.add(expected((ToolKind) v[0], (Risk) v[1], (PermissionMode) v[2], (boolean) v[3], (boolean) v[4],
                    (boolean) v[5], (boolean) v[6]).index());
        });
        assertThat(used).hasSize(TABLE.size());
    }

    @ParameterizedTest
    @CsvSource({"ASK, false", "ACCEPT_EDITS, false", "ASK, true", "ACCEPT_EDITS, true"})
    void mcpCardReasonIsFixedWhateverTheDeclaredRisk(PermissionMode mode, boolean scratch) {
        for (Risk risk : Risk.values()) {
            Decision d = Policy.decide(new PolicyInput("mcp_srv_t", ToolKind.MCP, risk, mode, false, false, scratch, false));
            assertThat(d.verdict()).isEqualTo(Verdict.ASK);
            assertThat(d.reason()).isEqualTo("MCP server tool requires approval");
        }
    }

    @ParameterizedTest
    @EnumSource(value = PermissionMode.class, names = {"ASK", "ACCEPT_EDITS"})
    void outsideCardNamesTheTool(PermissionMode mode) {
        Decision d = Policy.decide(new PolicyInput("Read", ToolKind.READ, Risk.LOW, mode, true, false, false, false));
        assertThat(d.verdict()).isEqualTo(Verdict.ASK);
        assertThat(d.reason()).isEqualTo("Access outside the workspace: Read");
    }

    @Test
    void aLowRiskReadOutsideTheRootsIsNotAutoAllowed() {
        Decision d = Policy.decide(new PolicyInput("Grep", ToolKind.READ, Risk.LOW, PermissionMode.ASK, true, false, false,
                false));
        assertThat(d.verdict()).isEqualTo(Verdict.ASK);
        assertThat(d.rule()).isEqualTo("outside.ask");
    }

    @Test
    void acceptEditsStillConfirmsAnOutsideWrite() {
        Decision d = Policy.decide(new PolicyInput("Write", ToolKind.EDIT, Risk.HIGH, PermissionMode.ACCEPT_EDITS,
                true, false, false, false));
        assertThat(d.verdict()).isEqualTo(Verdict.ASK);
        assertThat(d.rule()).isEqualTo("outside.accept-edits");
    }

    @Test
    void aScratchWriteUnderAskNeedsNoCard() {
        Decision d = Policy.decide(new PolicyInput("Edit", ToolKind.EDIT, Risk.HIGH, PermissionMode.ASK, false, false, true,
                false));
        assertThat(d).isEqualTo(new Decision(Verdict.ALLOW, "edit.scratch", "scratch-root",
                "Edit writes inside the scratch root"));
    }

    @Test
    void askCardsNameTheToolForEditBashAndPlugins() {
        assertThat(Policy.decide(new PolicyInput("Write", ToolKind.EDIT, Risk.HIGH, PermissionMode.ASK, false, false, false,
                false)).reason()).isEqualTo("Write requires approval");
        assertThat(Policy.decide(new PolicyInput("Bash", ToolKind.EXEC, Risk.HIGH, PermissionMode.ACCEPT_EDITS, false, false,
                false, false)).reason()).isEqualTo("Bash requires approval");
        assertThat(Policy.decide(new PolicyInput("plugin_p_t", ToolKind.PLUGIN, Risk.MEDIUM, PermissionMode.ASK,
                false, false, false, false)).reason()).isEqualTo("plugin_p_t requires approval");
    }

    @Test
    void anUnresolvedPermissionModeDeniesEvenWithAGrant() {
        Decision d = Policy.decide(new PolicyInput("Read", ToolKind.READ, Risk.LOW, null, false, false, false, true));
        assertThat(d.verdict()).isEqualTo(Verdict.DENY);
    }

    @Test
    void inputRejectsAPathThatIsBothOutsideAndInScratch() {
        assertThatThrownBy(() -> new PolicyInput("Write", ToolKind.EDIT, Risk.HIGH, PermissionMode.ASK, true, false, true,
                false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void inputRequiresNameKindAndRisk() {
        assertThatThrownBy(() -> new PolicyInput(null, ToolKind.EDIT, Risk.HIGH, PermissionMode.ASK, false, false, false,
                false)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new PolicyInput("x", null, Risk.HIGH, PermissionMode.ASK, false, false, false, false))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new PolicyInput("x", ToolKind.EDIT, null, PermissionMode.ASK, false, false, false, false))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void decisionFieldsAreRequired() {
        assertThatThrownBy(() -> new Decision(null, "r", "s", "x")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new Decision(Verdict.ALLOW, "r", null, "x")).isInstanceOf(NullPointerException.class);
    }
}
