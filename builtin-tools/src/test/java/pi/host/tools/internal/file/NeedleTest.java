package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the in-process Grep may look for in raw bytes before (or instead of) running the regex. */
class NeedleTest {

    @Test
    void aPatternWithoutMetacharactersIsAnExactLiteral() {
        assertThat(Needle.pureLiteral("ConcurrentHashMap")).isEqualTo("ConcurrentHashMap");
        assertThat(Needle.pureLiteral("Map<K, V> m = ")).isEqualTo("Map<K, V> m = ");
        assertThat(Needle.pureLiteral("alpha\\(1\\)\\.x\\*")).isEqualTo("alpha(1).x*");
        assertThat(Needle.of("foo", false).exact).isTrue();
    }

    @Test
    void metacharactersAndLetterEscapesAreNotLiterals() {
        assertThat(Needle.pureLiteral("a.b")).isNull();
        assertThat(Needle.pureLiteral("a\\b")).isNull();
        assertThat(Needle.pureLiteral("a\\d")).isNull();
        assertThat(Needle.pureLiteral("a{2}")).isNull();
        assertThat(Needle.pureLiteral("x|y")).isNull();
        assertThat(Needle.pureLiteral("\\1")).isNull();
    }

    @Test
    void theLongestRequiredRunIsTakenFromTheTopLevelOnly() {
        assertThat(Needle.requiredLiteral("int \\w+")).isEqualTo("int ");
        assertThat(Needle.requiredLiteral("\\bHashMap<[A-Z]>\\(")).isEqualTo("HashMap<");
        assertThat(Needle.requiredLiteral("colou?r of (the|a) thing")).isEqualTo(" thing");
        assertThat(Needle.requiredLiteral("ab+cdef")).isEqualTo("cdef");
        assertThat(Needle.requiredLiteral("abcd+e")).isEqualTo("abcd");
        assertThat(Needle.requiredLiteral("abcx*yz")).isEqualTo("abc");
        assertThat(Needle.requiredLiteral("abcx{0,3}yz")).isEqualTo("abc");
        assertThat(Needle.requiredLiteral("[abc]+defg.*")).isEqualTo("defg");
        assertThat(Needle.requiredLiteral("(?:xyz)?wxyz")).isEqualTo("wxyz");
    }

    @Test
    void constructsNotReadGiveNoNeedle() {
        assertThat(Needle.requiredLiteral("alpha|beta")).isNull(); // either side alone can match
        assertThat(Needle.requiredLiteral("(?i)alpha")).isNull(); // inline flags change the literal
        assertThat(Needle.requiredLiteral("\\x41BCD")).isNull(); // hex escape digits are not literals
        assertThat(Needle.requiredLiteral("\\QA.B\\E")).isNull();
        assertThat(Needle.requiredLiteral("[[a-z]&&[^q]]abcd")).isNull(); // nested class
        assertThat(Needle.of("a\\dz", false)).isNull(); // runs too short to filter
    }

    @Test
    void caseInsensitiveNeedlesAvoidLettersThatFoldOutsideAscii() {
        // java.util.regex lets U+017F match s, U+212A match k and U+0130/U+0131 match i
        assertThat(Needle.of("alpha", true).exact).isTrue();
        assertThat(Needle.of("ConcurrentHashMap", true).exact).isFalse();
        assertThat(find(Needle.of("ConcurrentHashMap", true), "x concurrenthaSHMAP")).isEqualTo(2);
        assertThat(find(Needle.of("ALPHA", true), "an AlPhA")).isEqualTo(3);
        assertThat(find(Needle.of("ALPHA", true), "an alpa")).isEqualTo(-1);
        assertThat(Needle.of("kiss", true)).isNull();
        assertThat(Needle.of("größe", true)).isNull();
    }

    @Test
    void nonAsciiLiteralsAreSearchedAsUtf8Bytes() {
        Needle n = Needle.of("größe", false);
        assertThat(n.exact).isTrue();
        assertThat(find(n, "die größe")).isEqualTo(4);
        assertThat(find(n, "die grosse")).isEqualTo(-1);
    }

    @Test
    void occurrencesAreFoundFromAnyStartAndNearTheEnds() {
        Needle n = Needle.of("HashMap", false);
        String s = latin1("HashMap xHashMa HashMap");
        assertThat(n.find(s, 0)).isZero();
        assertThat(n.find(s, 1)).isEqualTo(16);
        assertThat(n.find(s, 17)).isEqualTo(-1);
        assertThat(n.find(latin1("HashMa"), 0)).isEqualTo(-1);
        Needle ci = Needle.of("map<", true);
        assertThat(ci.find(latin1("a MAP< b Map<"), 3)).isEqualTo(9);
        assertThat(Needle.of("größe", false).find(latin1("größe größe"), 1)).isEqualTo(8);
    }

    @Test
    void literalsBytesCannotStandForAreNotNeedles() {
        assertThat(Needle.of("a\uFFFDb", false)).isNull(); // what undecodable bytes become
        assertThat(Needle.of("\uFEFFabc", false)).isNull(); // the BOM a file's first line loses
        assertThat(Needle.of("abc\ud800", false)).isNull(); // an unpaired surrogate
    }

    /** The byte offset of the needle in the UTF-8 text, found as the searcher finds it. */
    private static int find(Needle n, String text) {
        return n.find(latin1(text), 0);
    }

    /** UTF-8 bytes held one per char, as the searcher holds a file. */
    private static String latin1(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }
}
