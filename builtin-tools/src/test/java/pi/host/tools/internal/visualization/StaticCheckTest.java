package pi.host.tools.internal.visualization;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pins spec §4b.1's static check: scripts compiled, never run; literal ids that name no element listed. */
class StaticCheckTest {

    @SuppressWarnings("unchecked")
    private static List<String> problems(Map<String, Object> check) {
        return (List<String>) check.get("problems");
    }

    @Test
    void aFragmentWhoseIdsExistHasNoProblems() {
        Map<String, Object> check = StaticCheck.check("<div id=\"chart\"></div><svg id='s'></svg>\n<script>\n"
                + "const data = [1, 2].map(v => v * 2);\nviz.chart('chart', data);\ndocument.getElementById(`s`);\n"
                + "document.querySelector('#chart .bar');\n</script><script type=\"application/json\">{not js</script>");
        assertThat(check.get("scripts")).isEqualTo(1);
        assertThat(problems(check)).isEmpty();
        assertThat(check.get("ok")).isEqualTo(true);
    }

    @Test
    void missingIdsAreListedWithTheCallAndLine() {
        Map<String, Object> check = StaticCheck.check("<div id=\"chart\"></div>\n<script>\nviz.render('#chrat', {});\n"
                + "document.getElementById('legend');\ndocument.querySelector('#nav > a');\n"
                + "document.getElementById(name);\n</script>");
        assertThat(problems(check)).hasSize(3);
        assertThat(problems(check).get(0)).contains("line 3").contains("viz.render(\"#chrat\")").contains("id=\"chrat\"");
        assertThat(problems(check).get(1)).contains("getElementById(\"legend\")");
        assertThat(problems(check).get(2)).contains("querySelector(\"#nav > a\")").contains("id=\"nav\"");
    }

    @Test
    void aSyntaxErrorIsAProblemAndNothingRuns() {
        Map<String, Object> check = StaticCheck.check("<p id=x></p><script>java.lang.System.exit(3); function( {</script>");
        assertThat(problems(check)).isNotEmpty();
        assertThat(problems(check).get(0)).startsWith("script 1 (line 1), line 1:");
    }

    @Test
    void syntaxTheParserDoesNotKnowIsNotCheckedRatherThanBroken() {
        Map<String, Object> check = StaticCheck.check("<script>class Chart { draw() {} }\n"
                + "async function load() { await fetch('x'); }</script>");
        assertThat(problems(check)).isEmpty();
        assertThat((List<?>) check.get("unchecked")).hasSize(1);
    }

    @Test
    void externalScriptsAreNotFetchedNorChecked() {
        Map<String, Object> check = StaticCheck.check("<script src=\"https://example.com/x.js\"></script>");
        assertThat(check.get("scripts")).isEqualTo(0);
    }
}
