package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.api.PathKind;
import pi.host.api.ToolResult;

/** Glob and Grep, each test run with rg (when installed) and with the in-process fallback. */
class SearchToolsTest {

    @TempDir
    Path tmp;
    Fixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new Fixture(tmp);
        fx.file("src/A.java", "class A {\n  int alpha = 1;\n}\n");
        fx.file("src/sub/B.java", "class B {\n  // Alpha here\n  int beta;\n  int gamma;\n}\n");
        fx.file("src/notes.txt", "alpha in text\n");
        fx.file("README.md", "readme\n");
        fx.file(".gitignore", "build/\n*.log\n!keep.log\n");
        fx.file("build/Gen.java", "class Gen { int alpha; }\n");
        fx.file("x.log", "alpha log\n");
        fx.file("keep.log", "alpha kept\n");
        fx.file(".hidden/H.java", "alpha hidden\n");
    }

    static Optional<Path> engine(String which) {
        return which.equals("rg") ? Rg.locate() : Optional.of(Path.of("/nonexistent/rg"));
    }

    static void needs(String which) {
        if (which.equals("rg")) {
            assumeThat(Rg.locate()).as("rg installed").isPresent();
        }
    }

    ToolResult glob(String which, String path, String pattern) throws Exception {
        return fx.run(new GlobTool(engine(which)), path, PathKind.DIRECTORY, "pattern", pattern);
    }

    ToolResult grep(String which, String path, Object... kv) throws Exception {
        return fx.run(new GrepTool(fx.provenance, fx.files, engine(which)), path, PathKind.FILE_OR_DIRECTORY, kv);
    }

    static String text(ToolResult r) {
        return r.text().get(0);
    }

    /** Pins issue 13.2 for walks: a data dir inside the workspace is neither listed nor searched by Glob or Grep. */
    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void globAndGrepNeverEnterTheHostsOwnState(String which) throws Exception {
        needs(which);
        fx.file("state/pi-host.db.txt", "alpha in the database\n");
        fx.file("state/scratch/s_x/notes.txt", "alpha in a scratch\n");
        fx.file("st*ate[1]/mcp.json", "alpha in a strangely named data dir\n");
        fx.file("src/state/kept.txt", "alpha: same name, not the data dir\n");
        fx.excluded = List.of(fx.ws.resolve("state"), fx.ws.resolve("st*ate[1]"));
        String listed = text(glob(which, ".", "**/*"));
        assertThat(listed).contains("src/A.java", "src/state/kept.txt").doesNotContain("pi-host.db", "scratch",
                "mcp.json");
        for (String mode : List.of("content", "files", "count")) {
            String found = text(grep(which, ".", "pattern", "alpha", "outputMode", mode));
            assertThat(found).as(mode).contains("src/state/kept.txt").doesNotContain("pi-host.db", "scratch",
                    "mcp.json");
        }
        assertThat(text(glob(which, "src", "**/*"))).as("a walk below it is unaffected").contains("kept.txt");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void globListsSortedRelativePathsHonouringGitignoreAndHiddenFiles(String which) throws Exception {
        needs(which);
        ToolResult r = glob(which, ".", "*.java");
        assertThat(r.ok()).isTrue();
        assertThat(text(r)).isEqualTo("src/A.java\nsrc/sub/B.java\n");
        assertThat(r.details().get("engine")).isEqualTo(which);
        assertThat(text(glob(which, ".", "*.log"))).isEqualTo("keep.log\n");
        assertThat(text(glob(which, ".", "src/**/*.{java,txt}")))
                .isEqualTo("src/A.java\nsrc/notes.txt\nsrc/sub/B.java\n");
        assertThat(text(glob(which, "src", "*.java"))).isEqualTo("src/A.java\nsrc/sub/B.java\n");
        assertThat(text(glob(which, "src/sub", "**"))).isEqualTo("src/sub/B.java\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void globOnScratchGivesAbsolutePaths(String which) throws Exception {
        needs(which);
        Files.writeString(fx.scratch.resolve("s.txt"), "x");
        ToolResult r = glob(which, fx.scratch.toString(), "*.txt");
        assertThat(text(r)).isEqualTo(fx.scratch.resolve("s.txt").toString().replace('\\', '/') + "\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void symlinksOutOfTheRootAndDotDotPatternsFindNothingOutside(String which) throws Exception {
        needs(which);
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.java"), "alpha secret\n");
        Files.createSymbolicLink(fx.ws.resolve("src/link"), outside);
        Files.createSymbolicLink(fx.ws.resolve("src/file.java"), outside.resolve("secret.java"));
        assertThat(text(glob(which, ".", "**/*.java"))).doesNotContain("secret").doesNotContain("link")
                .doesNotContain("file.java");
        assertThat(text(glob(which, ".", "../**"))).startsWith("(no files match");
        assertThat(text(glob(which, ".", "../outside/*.java"))).startsWith("(no files match");
        assertThat(text(grep(which, ".", "pattern", "secret"))).startsWith("(no matches");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void relativeChainedAndDanglingSymlinksAreNeverListedOrSearched(String which) throws Exception {
        needs(which);
        Path outside = Files.createDirectories(tmp.resolve("outside2"));
        Files.writeString(outside.resolve("leak.txt"), "alpha leak\n");
        Files.createSymbolicLink(fx.ws.resolve("src/rel"), Path.of("../../outside2"));
        Files.createSymbolicLink(fx.ws.resolve("src/hop1"), fx.ws.resolve("src/hop2"));
        Files.createSymbolicLink(fx.ws.resolve("src/hop2"), outside.resolve("leak.txt"));
        Files.createSymbolicLink(fx.ws.resolve("src/dangling.txt"), tmp.resolve("missing.txt"));
        assertThat(text(glob(which, ".", "**"))).doesNotContain("leak").doesNotContain("rel")
                .doesNotContain("hop").doesNotContain("dangling");
        String g = text(grep(which, ".", "pattern", "alpha", "outputMode", "files"));
        assertThat(g).doesNotContain("leak").doesNotContain("hop").isEqualTo("keep.log\nsrc/A.java\nsrc/notes.txt\n");
        assertThat(fx.provenance.seen(fx.session, outside.resolve("leak.txt"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void globTruncatesAtAThousand(String which) throws Exception {
        needs(which);
        for (int i = 0; i < 1005; i++) {
            fx.file(String.format("many/f%04d.txt", i), "");
        }
        ToolResult r = glob(which, "many", "*.txt");
        assertThat(r.truncated()).isTrue();
        assertThat(text(r)).startsWith("many/f0000.txt\n").contains("many/f0999.txt\n")
                .doesNotContain("f1000").contains("[truncated: showing 1000 of 1005 files");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void grepShowsTaggedMatchesAndRecordsThemAsDisplayed(String which) throws Exception {
        needs(which);
        ToolResult r = grep(which, ".", "pattern", "alpha");
        Path a = fx.ws.resolve("src/A.java");
        String tag = HexFormat.of().formatHex(Tags.digest(Files.readAllBytes(a))).substring(0, 4).toUpperCase();
        assertThat(text(r)).isEqualTo("[keep.log#" + tagOf("keep.log") + "]\n1:alpha kept\n"
                + "[src/A.java#" + tag + "]\n2:  int alpha = 1;\n"
                + "[src/notes.txt#" + tagOf("src/notes.txt") + "]\n1:alpha in text\n");
        assertThat(fx.provenance.seen(fx.session, a).orElseThrow().lines().toString()).isEqualTo("{2}");
        assertThat(r.details()).containsEntry("matches", 3).containsEntry("files", 3);
    }

    String tagOf(String rel) throws Exception {
        return Tags.tag(Tags.digest(Files.readAllBytes(fx.ws.resolve(rel))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void grepCaseInsensitiveIncludeModesAndContext(String which) throws Exception {
        needs(which);
        assertThat(text(grep(which, ".", "pattern", "alpha", "caseInsensitive", true, "include", "*.java",
                "outputMode", "files"))).isEqualTo("src/A.java\nsrc/sub/B.java\n");
        assertThat(text(grep(which, ".", "pattern", "int \\w+", "outputMode", "count")))
                .isEqualTo("src/A.java:1\nsrc/sub/B.java:2\n");
        ToolResult r = grep(which, "src/sub", "pattern", "gamma", "context", 1);
        assertThat(text(r)).isEqualTo("[src/sub/B.java#" + tagOf("src/sub/B.java") + "]\n3-  int beta;\n"
                + "4:  int gamma;\n5-}\n");
        assertThat(fx.provenance.seen(fx.session, fx.ws.resolve("src/sub/B.java")).orElseThrow().lines()
                .toString()).isEqualTo("{3, 4, 5}");
        assertThat(text(grep(which, "src/sub", "pattern", "class|gamma", "context", 0)))
                .endsWith("1:class B {\n--\n4:  int gamma;\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void grepOnOneFileSearchesItAlone(String which) throws Exception {
        needs(which);
        assertThat(text(grep(which, "src/notes.txt", "pattern", "alpha")))
                .isEqualTo("[src/notes.txt#" + tagOf("src/notes.txt") + "]\n1:alpha in text\n");
        // an ignored file named explicitly is searched
        assertThat(text(grep(which, "build/Gen.java", "pattern", "alpha"))).startsWith("[build/Gen.java#");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void includeStillFiltersTheBaseNameOfADirectlyNamedFile(String which) throws Exception {
        needs(which);
        // spec §4: "a directly named file is searched without walking siblings, while include still filters its base name"
        assertThat(text(grep(which, "src/notes.txt", "pattern", "alpha", "include", "*.java")))
                .startsWith("(no matches");
        assertThat(text(grep(which, "src/notes.txt", "pattern", "alpha", "include", "*.txt")))
                .startsWith("[src/notes.txt#");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void grepTruncatesAtFiveHundredMatchingLines(String which) throws Exception {
        needs(which);
        fx.file("big/a.txt", "hit\n".repeat(300));
        fx.file("big/b.txt", "hit\n".repeat(300));
        ToolResult r = grep(which, "big", "pattern", "hit");
        assertThat(r.truncated()).isTrue();
        assertThat(r.details()).containsEntry("matches", 500);
        assertThat(text(r)).contains("300:hit\n[big/b.txt#").contains("\n200:hit\n[truncated:")
                .endsWith("[truncated: more than 500 matching lines; narrow the pattern, include or path]\n");
    }

    /** Pins: files mode stopped at the 500-matching-line budget of content mode (143 of 156 files on the JDK). */
    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void filesAndCountModeAreNotCutByTheMatchingLineBudget(String which) throws Exception {
        needs(which);
        for (String f : new String[] {"a", "b", "c"}) {
            fx.file("big/" + f + ".txt", "hit\n".repeat(300));
        }
        ToolResult files = grep(which, "big", "pattern", "hit", "outputMode", "files");
        assertThat(files.truncated()).isFalse();
        assertThat(text(files)).contains("big/a.txt").contains("big/b.txt").contains("big/c.txt");
        ToolResult count = grep(which, "big", "pattern", "hit", "outputMode", "count");
        assertThat(text(count)).contains("big/c.txt:300");
    }

    @Test
    void rgAndTheFallbackAgreeOnASmallTree() throws Exception {
        needs("rg");
        fx.file("src/sub/deeper/C.txt", "Alpha\nalphabet\n  alpha  \n");
        fx.file("src/sub/.ignore", "deeper/\n");
        fx.file("lib/D.java", "alpha\r\nbeta\r\n");
        String[][] globs = {{".", "*.java"}, {".", "**"}, {"src", "sub/*"}, {".", "!*.java"}, {"src", "**/*.txt"}};
        for (String[] g : globs) {
            assertThat(text(glob("java", g[0], g[1]))).as("glob %s", (Object) g).isEqualTo(text(glob("rg", g[0], g[1])));
        }
        Object[][] greps = {{".", "pattern", "alpha"}, {".", "pattern", "ALPHA", "caseInsensitive", true},
                {"src", "pattern", "a.p", "context", 2}, {".", "pattern", "beta", "include", "*.java"},
                {".", "pattern", "\\bint\\b", "outputMode", "count"}};
        for (Object[] g : greps) {
            Object[] kv = java.util.Arrays.copyOfRange(g, 1, g.length);
            assertThat(text(grep("java", (String) g[0], kv))).as("grep %s", java.util.Arrays.toString(g))
                    .isEqualTo(text(grep("rg", (String) g[0], kv)));
        }
    }

    /** The gitignore forms a home-made subset tends to get wrong, each checked against rg on the same tree. */
    @Test
    void theWalkerAgreesWithRgOnGitignoreSemantics() throws Exception {
        needs("rg");
        fx.file("ig/.gitignore", String.join("\n",
                "# a comment, then a blank line", "",
                "logs/*", "!logs/important.log", // contents ignored, the directory not: a negation re-includes
                "cache/", "!cache/keep.txt", // an ignored directory is not entered: no re-inclusion
                "**/tmp", "a/**/b.txt", "docs/**", "**/*.bak",
                "\\#hash.txt", "\\!bang.txt", // escaped first characters are literal
                "trail.txt   ", "space\\ ", // trailing spaces trimmed unless escaped
                "out/", // directories only
                "[ab]?.dat", "prec*.txt", "*.gen", ""));
        // .ignore decides before .gitignore, even before a deeper one (rg's precedence, not "last rule wins")
        fx.file("ig/.ignore", "!prec1.txt\nign-*.txt\n");
        fx.file("ig/sub/.gitignore", "/local.txt\n!deep.gen\n!prec2.txt\n!ign-sub.txt\n"); // nested, anchored to sub/
        // the whitelist idiom: everything ignored, then directories and *.md re-included
        fx.file("ig/wl/.gitignore", "*\n!*/\n!*.md\nx**y.md\n[m-n]*.md\n");
        fx.file("ig/.rgignore", "!x.gen\n");
        String[] files = {"logs/a.log", "logs/important.log", "cache/keep.txt", "cache/other.txt",
            "tmp/t.txt", "x/tmp/t.txt", "x/tmpfile.txt", "a/b.txt", "a/x/y/b.txt", "a/c.txt", "docs/d/e.txt", "docsy.txt",
            "z.bak", "q/z.bak", "#hash.txt", "!bang.txt", "trail.txt", "space ", "space", "out/o.txt", "sub/out",
            "a1.dat", "c1.dat", "ab.dat", "prec1.txt", "prec2.txt", "sub/prec2.txt", "local.txt", "sub/local.txt",
            "sub/deeper/local.txt", "y.gen", "x.gen", "sub/deep.gen", "sub/other.gen", "keep.txt", "ign-a.txt",
            "sub/ign-sub.txt", "wl/a.txt", "wl/r.md", "wl/d/s.md", "wl/d/t.txt", "wl/xay.md", "wl/x/y.md", "wl/m.md"};
        for (String f : files) {
            fx.file("ig/" + f, "alpha\n");
        }
        for (String dir : new String[] {"ig", "ig/sub", "ig/a", "ig/wl"}) {
            String rg = text(glob("rg", dir, "**"));
            assertThat(text(glob("java", dir, "**"))).as("glob under %s", dir).isEqualTo(rg);
            assertThat(text(grep("java", dir, "pattern", "alpha", "outputMode", "files"))).as("grep under %s", dir)
                    .isEqualTo(text(grep("rg", dir, "pattern", "alpha", "outputMode", "files")));
        }
        // and what rg decides, pinned, so a change in either engine shows
        assertThat(text(glob("java", "ig", "**"))).isEqualTo(String.join("\n", "ig/a/c.txt", "ig/c1.dat", "ig/docsy.txt",
                "ig/keep.txt", "ig/local.txt", "ig/logs/important.log", "ig/prec1.txt", "ig/space", "ig/sub/deep.gen",
                "ig/sub/deeper/local.txt", "ig/sub/out", "ig/sub/prec2.txt", "ig/wl/d/s.md", "ig/wl/r.md", "ig/wl/x/y.md",
                "ig/x.gen", "ig/x/tmpfile.txt", ""));
    }

    @Test
    void aPatternRgRejectsFallsBackToJavaRegex() throws Exception {
        needs("rg");
        ToolResult r = grep("rg", ".", "pattern", "int (?=alpha)");
        assertThat(r.details()).containsEntry("engine", "java");
        assertThat(text(r)).contains("2:  int alpha = 1;");
    }

    @Test
    void anInvalidRegexIsAnInvalidArgument() throws Exception {
        ToolResult r = grep("java", ".", "pattern", "a(b");
        assertThat(r.ok()).isFalse();
        assertThat(text(r)).contains("invalid regex");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void literalsWithMetacharactersCaseAndNonAsciiMatchAsRegexes(String which) throws Exception {
        needs(which);
        fx.file("lit/a.txt", "call alpha(1).x here\nalpha1x\naxb and a.b\n");
        fx.file("lit/b.txt", "Größe: 3\ngrosse\nMAſK and mask\n");
        assertThat(text(grep(which, "lit", "pattern", "alpha\\(1\\)\\.x", "outputMode", "count")))
                .isEqualTo("lit/a.txt:1\n");
        assertThat(text(grep(which, "lit", "pattern", "a.b", "outputMode", "count"))).isEqualTo("lit/a.txt:1\n");
        assertThat(text(grep(which, "lit/a.txt", "pattern", "a.b"))).endsWith("\n3:axb and a.b\n");
        assertThat(text(grep(which, "lit", "pattern", "größe", "caseInsensitive", true)))
                .endsWith("]\n1:Größe: 3\n");
        assertThat(text(grep(which, "lit", "pattern", "Größe", "outputMode", "files"))).isEqualTo("lit/b.txt\n");
        // U+017F (long s) and U+212A (Kelvin sign) fold to s and k in both engines
        assertThat(text(grep(which, "lit", "pattern", "mask", "caseInsensitive", true))).endsWith("]\n3:MAſK and mask\n");
        assertThat(text(grep(which, "lit", "pattern", "ALPHA", "caseInsensitive", true, "outputMode", "count")))
                .isEqualTo("lit/a.txt:2\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void crlfLinesTheLastLineWithoutNewlineAndRepeatsOnOneLine(String which) throws Exception {
        needs(which);
        fx.file("eol/crlf.txt", "one\r\nalpha two\r\nthree\r\n");
        fx.file("eol/last.txt", "x\ny\nlast alpha");
        fx.file("eol/many.txt", "alpha alpha alpha\nbeta\nalpha\n");
        assertThat(text(grep(which, "eol", "pattern", "alpha", "outputMode", "count")))
                .isEqualTo("eol/crlf.txt:1\neol/last.txt:1\neol/many.txt:2\n");
        assertThat(text(grep(which, "eol/crlf.txt", "pattern", "alpha"))).endsWith("]\n2:alpha two\n");
        assertThat(text(grep(which, "eol/last.txt", "pattern", "alpha"))).endsWith("]\n3:last alpha\n");
        assertThat(text(grep(which, "eol/many.txt", "pattern", "alpha"))).endsWith("]\n1:alpha alpha alpha\n--\n3:alpha\n");
        assertThat(text(grep(which, "eol", "pattern", "two\\s*$", "outputMode", "files"))).isEqualTo("eol/crlf.txt\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void binaryFilesAreSkippedInEveryMode(String which) throws Exception {
        needs(which);
        fx.bytes("bin/x.dat", "alpha one\n\0\0alpha two\n".getBytes(StandardCharsets.UTF_8));
        fx.file("bin/y.txt", "alpha\n");
        for (String pattern : new String[] {"alpha", "al.ha", "alpha \\w+"}) {
            for (String mode : new String[] {"content", "files", "count"}) {
                String t = text(grep(which, "bin", "pattern", pattern, "outputMode", mode));
                assertThat(t).as("%s %s", pattern, mode).doesNotContain("x.dat");
            }
            assertThat(text(grep(which, "bin/x.dat", "pattern", pattern, "outputMode", "files")))
                    .as("named %s", pattern).startsWith("(no matches");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg", "java"})
    void filesModeStopsAtAThousandFilesInPathOrder(String which) throws Exception {
        needs(which);
        for (int i = 0; i < 1003; i++) {
            fx.file(String.format("many/f%04d.txt", i), i % 2 == 0 ? "hit\n" : "hit\nhit\n");
        }
        ToolResult r = grep(which, "many", "pattern", "hit", "outputMode", "files");
        assertThat(r.truncated()).isTrue();
        assertThat(text(r)).startsWith("many/f0000.txt\nmany/f0001.txt\n").contains("many/f0999.txt\n")
                .doesNotContain("f1000").endsWith("[truncated: more than 1000 files match; narrow the pattern, include or path]\n");
        assertThat(r.details()).containsEntry("files", 1000).doesNotContainKey("matches");
        ToolResult c = grep(which, "many", "pattern", "hit", "outputMode", "count");
        assertThat(c.details()).containsEntry("files", 1000).containsEntry("matches", 1500);
    }
}
