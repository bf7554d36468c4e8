package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;

class EditScriptTest {

    @Test
    void parsesEveryOpWithBodiesAndIgnoresBlankLines() throws Exception {
        EditScript s = EditScript.parse("PUT 1.=2:\n+a\n+\n\nPUT >0:\n+top\nPUT >$:\r\n+end\r\nDEL 4.=5\nMV x/y.txt\n");
        assertThat(s.ops).hasSize(5);
        assertThat(s.ops.get(0).body()).containsExactly("a", "");
        assertThat(s.ops.get(2).atEnd()).isTrue();
        assertThat(s.ops.get(2).body()).containsExactly("end");
        assertThat(s.ops.get(3).body()).isEmpty();
        assertThat(s.move().dest()).isEqualTo("x/y.txt");
        assertThat(EditScript.parse("PUT 3.=3:").ops.get(0).body()).isEmpty(); // no body: delete
    }

    @Test
    void refusesWhatIsNotTheGrammarNamingTheLine() {
        String[][] cases = {
            {"+orphan body", "line 1"},
            {"PUT 1.=1:\n+x\nhello", "line 3"},
            {"PUT >2:", "inserts nothing"},
            {"DEL 1.=1\n+x", "line 2"},
            {"REM\nDEL 1.=1", "stand alone"},
            {"MV a\nMV b", "only one MV"},
            {"PUT 1-2:", "a.=b"},
            {"PUT 7:", "a.=a"},
            {"", "no op"}};
        for (String[] c : cases) {
            assertThatThrownBy(() -> EditScript.parse(c[0])).as(c[0])
                    .isInstanceOfSatisfying(EditScript.Failure.class, f -> {
                        assertThat(f.code).isEqualTo(ErrorCode.EDIT_PARSE_FAILED);
                        assertThat(f.getMessage()).contains(c[1]);
                    });
        }
    }

    @Test
    void checksRangesAgainstTheFile() throws Exception {
        String[][] cases = {
            {"PUT 0.=1:", "the file has 3 lines"},
            {"DEL 2.=1", "backwards"},
            {"PUT >4:\n+x", "insert after 0..3"},
            {"DEL 1.=2\nPUT 2.=3:", "overlaps"},
            {"PUT >1:\n+x\nDEL 1.=3", "inside"}};
        for (String[] c : cases) {
            EditScript s = EditScript.parse(c[0]);
            assertThatThrownBy(() -> s.checkRanges(3)).as(c[0])
                    .isInstanceOfSatisfying(EditScript.Failure.class, f -> {
                        assertThat(f.code).isEqualTo(ErrorCode.EDIT_RANGE_INVALID);
                        assertThat(f.getMessage()).contains(c[1]);
                    });
        }
    }

    @Test
    void anInsertRightAfterAReplacedRangeIsNotAnOverlap() throws Exception {
        EditScript.parse("PUT 1.=2:\n+x\nPUT >2:\n+y\nPUT >0:\n+z").checkRanges(3);
    }
}
