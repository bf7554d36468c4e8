package pi.host.plugins.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestClausesTest {

    @Test
    void splitsClausesButNotInsideQuotes() {
        List<ManifestClauses.Clause> clauses = ManifestClauses.parse(
                "pi.host.api;version=\"[0.2,1)\", a.b;c.d;resolution:=optional;x:String=\"y;z\"");
        assertThat(clauses).hasSize(2);
        assertThat(clauses.get(0).paths()).containsExactly("pi.host.api");
        assertThat(clauses.get(0).attributes()).containsEntry("version", "[0.2,1)");
        assertThat(clauses.get(1).paths()).containsExactly("a.b", "c.d");
        assertThat(clauses.get(1).directives()).containsEntry("resolution", "optional");
        assertThat(clauses.get(1).attributes()).containsEntry("x", "y;z");
    }

    @Test
    void anEmptyHeaderHasNoClauses() {
        assertThat(ManifestClauses.parse(null)).isEmpty();
        assertThat(ManifestClauses.parse(" ")).isEmpty();
    }
}
