package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;

class ReadToolTest {

    @TempDir
    Path tmp;
    Fixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new Fixture(tmp);
    }

    @Test
    void numbersLinesUnderHeaderWithTheTagOfTheWholeFile() throws Exception {
        Path f = fx.file("a.txt", "one\ntwo\nthree\n");
        ToolResult r = fx.read("a.txt");
        String sha = HexFormat.of().formatHex(Tags.digest(Files.readAllBytes(f))).substring(0, 4).toUpperCase();
        assertThat(r.ok()).isTrue();
        assertThat(r.text().get(0)).isEqualTo("[a.txt#" + sha + "]\n1\tone\n2\ttwo\n3\tthree\n");
        assertThat(fx.provenance.seen(fx.session, f).orElseThrow().lines().toString()).isEqualTo("{1, 2, 3}");
    }

    @Test
    void offsetAndLimitShowAWindowAndRecordOnlyIt() throws Exception {
        Path f = fx.file("a.txt", "1\n2\n3\n4\n5");
        ToolResult r = fx.read("a.txt", "offset", 2, "limit", 2);
        assertThat(r.text().get(0)).contains("2\t2\n3\t3\n").contains("continue with offset 4 of 5")
                .doesNotContain("1\t1").doesNotContain("4\t4");
        assertThat(r.truncated()).isTrue();
        assertThat(fx.provenance.seen(fx.session, f).orElseThrow().lines().toString()).isEqualTo("{2, 3}");
        assertThat(fx.read("a.txt", "offset", 5).text().get(0)).endsWith("5\t5\n");
        assertThat(fx.read("a.txt", "offset", 9).text().get(0)).contains("the file has 5 lines");
    }

    @Test
    void cutsOverLongLinesWithAMarker() throws Exception {
        fx.file("long.txt", "x".repeat(10_000) + "\nshort\n");
        String t = fx.read("long.txt").text().get(0);
        assertThat(t).contains("x".repeat(ReadTool.MAX_LINE_CHARS) + " [line cut at 2000 characters]\n2\tshort");
    }

    @Test
    void refusesBinaryFilesClearly() throws Exception {
        fx.bytes("b.bin", new byte[] {1, 2, 0, 3});
        ToolResult r = fx.read("b.bin");
        assertThat(r.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(r.text().get(0)).contains("binary file");
    }

    /** The sniff covers exactly the first SNIFF_BYTES bytes, for a small file and a big one alike. */
    @Test
    void aNulIsBinaryOnlyWithinTheFirstSniffBytes() throws Exception {
        for (int size : new int[] {9_000, 3 * ReadTool.CHUNK}) {
            byte[] inside = "a\n".repeat(size / 2).getBytes(StandardCharsets.US_ASCII);
            inside[ReadTool.SNIFF_BYTES - 1] = 0;
            fx.bytes("inside.txt", inside);
            assertThat(fx.read("inside.txt").errorCode()).as("NUL at the last sniffed byte, size " + size)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            byte[] beyond = "a\n".repeat(size / 2).getBytes(StandardCharsets.US_ASCII);
            beyond[ReadTool.SNIFF_BYTES] = 0;
            fx.bytes("beyond.txt", beyond);
            assertThat(fx.read("beyond.txt").ok()).as("NUL just after the sniff, size " + size).isTrue();
        }
    }

    @Test
    void showsCrlfAndBomFilesWithoutTheirControlBytes() throws Exception {
        fx.bytes("w.txt", "\uFEFFa\r\nb\r\n".getBytes(StandardCharsets.UTF_8));
        assertThat(fx.read("w.txt").text().get(0)).endsWith("]\n1\ta\n2\tb\n");
    }

    @Test
    void pagesALargeFileWithoutKeepingItAndStillTagsAllOfIt() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 300_000; i++) {
            sb.append("line ").append(i).append('\n');
        }
        Path f = fx.file("big.txt", sb.toString());
        ToolResult r = fx.read("big.txt", "offset", 150_000, "limit", 2);
        assertThat(r.text().get(0)).contains("150000\tline 150000\n150001\tline 150001\n");
        assertThat(Fixture.tag(r)).isEqualTo(Tags.tag(Tags.digest(Files.readAllBytes(f))));
        assertThat(r.details()).containsEntry("totalLines", 300_000L);
    }

    /** Lines crossing the 64 KiB read chunks, multi-byte characters and over-long lines at the seams. */
    @Test
    void linesAcrossChunkBoundariesReadAsWhole() throws Exception {
        StringBuilder sb = new StringBuilder();
        java.util.Random random = new java.util.Random(42);
        while (sb.length() < 3 * ReadTool.CHUNK) {
            int kind = random.nextInt(10);
            int len = kind == 0 ? 9_000 + random.nextInt(5_000) : random.nextInt(120);
            for (int i = 0; i < len; i++) {
                sb.append(i % 7 == 0 ? '\u00e9' : i % 11 == 0 ? '\u20ac' : (char) ('a' + i % 26));
            }
            sb.append(kind == 1 ? "\r\n" : "\n");
        }
        sb.append("last line without a newline");
        String content = sb.toString();
        fx.file("seams.txt", content);
        String[] lines = content.split("\n", -1);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            byte[] bytes = lines[i].getBytes(StandardCharsets.UTF_8);
            boolean cut = bytes.length > ReadTool.MAX_LINE_BYTES;
            String text = new String(bytes, 0, Math.min(bytes.length, ReadTool.MAX_LINE_BYTES), StandardCharsets.UTF_8);
            if (!cut && text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            if (cut || text.length() > ReadTool.MAX_LINE_CHARS) {
                text = text.substring(0, Math.min(text.length(), ReadTool.MAX_LINE_CHARS)) + " [line cut at "
                        + ReadTool.MAX_LINE_CHARS + " characters]";
            }
            expected.append(i + 1).append('\t').append(text).append('\n');
        }
        ToolResult r = fx.read("seams.txt", "limit", 100_000);
        String t = r.text().get(0);
        assertThat(t.substring(t.indexOf('\n') + 1)).isEqualTo(expected.toString());
        assertThat(r.details()).containsEntry("totalLines", (long) lines.length);
    }
}
