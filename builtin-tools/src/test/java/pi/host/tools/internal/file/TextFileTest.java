package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * TextFile keeps lines as slices of the file's bytes and knows a carried-over line by its old
 * number (issue 4's Edit benchmark). These tests hold it to the behaviour it had when every line
 * was a copy and carried-over lines were known by identity: {@link Reference} is that algorithm.
 */
class TextFileTest {

    @Test
    void opsAtTheStartAndEndOfACrlfFileWithABomAndNoFinalNewlineKeepEveryOtherByte() throws Exception {
        byte[] file = bytes("\uFEFFone\r\ntwo\r\nthree\r\nfour");
        TextFile edited = TextFile.parse(file).apply(EditScript.parse("PUT >0:\n+zero\nDEL 2.=2\nPUT 4.=4:\n+FOUR"));
        assertThat(new String(edited.bytes(), StandardCharsets.UTF_8))
                .isEqualTo("\uFEFFzero\r\none\r\nthree\r\nFOUR");
        assertThat(edited.changedLines().stream().toArray()).containsExactly(1, 4);
        BitSet seen = new BitSet();
        seen.set(1, 5);
        // "one" and "three" carried over; nothing else
        assertThat(edited.carriedOver(seen).stream().toArray()).containsExactly(2, 3);
    }

    @Test
    void anInsertAtTheEndOfAFileWithoutFinalNewlineEndsTheOldLastLineAndItIsNoLongerCarriedOver()
            throws Exception {
        TextFile edited = TextFile.parse(bytes("a\nb")).apply(EditScript.parse("PUT >$:\n+c"));
        assertThat(new String(edited.bytes(), StandardCharsets.UTF_8)).isEqualTo("a\nb\nc");
        BitSet seen = new BitSet();
        seen.set(1, 3);
        assertThat(edited.carriedOver(seen).stream().toArray()).containsExactly(1);
    }

    @Test
    void randomEditsGiveTheSameBytesLinesAndDisplayedLinesAsTheCopyingAlgorithm() throws Exception {
        Random random = new Random(4);
        int applied = 0;
        for (int round = 0; round < 6000; round++) {
            byte[] file = randomFile(random);
            String ops = randomOps(random, Reference.parse(file).size());
            EditScript script = EditScript.parse(ops);
            TextFile old = TextFile.parse(file);
            try {
                script.checkRanges(old.size());
            } catch (EditScript.Failure rangeError) {
                continue;
            }
            applied++;
            Reference ref = Reference.parse(file);
            Reference refEdited = ref.apply(script);
            TextFile edited = old.apply(script);
            String why = "file " + java.util.Arrays.toString(file) + " ops " + ops;
            assertThat(edited.bytes()).as(why).isEqualTo(refEdited.bytes());
            assertThat(edited.size()).as(why).isEqualTo(refEdited.lines.size());
            assertThat(edited.changedLines()).as(why).isEqualTo(refEdited.changedLines());
            for (int l = 1; l <= old.size(); l++) {
                assertThat(old.text(l)).as(why).isEqualTo(ref.text(l));
            }
            for (int l = 1; l <= edited.size(); l++) {
                assertThat(edited.text(l)).as(why).isEqualTo(refEdited.text(l));
            }
            BitSet seen = new BitSet();
            for (int l = 1; l <= old.size(); l++) {
                if (random.nextInt(3) > 0) {
                    seen.set(l);
                }
            }
            assertThat(edited.carriedOver(seen)).as(why).isEqualTo(refEdited.carriedOver(ref, seen));
        }
        assertThat(applied).isGreaterThan(1500);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] randomFile(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (random.nextInt(5) == 0) {
            out.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
        }
        int lines = random.nextInt(8);
        for (int i = 0; i < lines; i++) {
            int len = random.nextInt(4);
            for (int k = 0; k < len; k++) {
                // letters, a stray CR, a byte that is not UTF-8
                int pick = random.nextInt(10);
                out.write(pick == 0 ? '\r' : pick == 1 ? 0xE9 : 'a' + random.nextInt(3));
            }
            boolean last = i == lines - 1;
            if (!last || random.nextBoolean()) {
                out.writeBytes(random.nextInt(3) == 0 ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
            }
        }
        return out.toByteArray();
    }

    private static String randomOps(Random random, int lines) {
        StringBuilder ops = new StringBuilder();
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
            int a = random.nextInt(lines + 2);
            int b = a + random.nextInt(3);
            switch (random.nextInt(5)) {
                case 0:
                    ops.append("DEL ").append(a).append(".=").append(b).append('\n');
                    break;
                case 1:
                    ops.append("PUT >").append(random.nextBoolean() ? "$" : String.valueOf(a)).append(":\n")
                            .append(body(random, 1 + random.nextInt(2)));
                    break;
                case 2:
                    ops.append("PUT >0:\n").append(body(random, 1));
                    break;
                default:
                    ops.append("PUT ").append(a).append(".=").append(b).append(":\n")
                            .append(body(random, random.nextInt(3)));
            }
        }
        return ops.toString();
    }

    private static String body(Random random, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append('+').append(random.nextBoolean() ? "new" : "é").append(i).append('\n');
        }
        return b.toString();
    }

    /** The algorithm before the slices: every line copied, ranges in a TreeMap, identity for carry-over. */
    private static final class Reference {
        private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        private static final byte[] LF = {'\n'};
        private static final byte[] CRLF = {'\r', '\n'};
        private static final byte[] NONE = {};

        record Line(byte[] content, byte[] end, boolean changed) {
        }

        final boolean bom;
        final List<Line> lines;
        final byte[] eol;

        Reference(boolean bom, List<Line> lines, byte[] eol) {
            this.bom = bom;
            this.lines = lines;
            this.eol = eol;
        }

        static Reference parse(byte[] bytes) {
            boolean bom = bytes.length >= 3 && bytes[0] == BOM[0] && bytes[1] == BOM[1] && bytes[2] == BOM[2];
            int start = bom ? 3 : 0;
            List<Line> lines = new ArrayList<>();
            byte[] eol = null;
            for (int i = start; i < bytes.length; i++) {
                if (bytes[i] == '\n') {
                    boolean cr = i > start && bytes[i - 1] == '\r';
                    if (eol == null) {
                        eol = cr ? CRLF : LF;
                    }
                    lines.add(new Line(java.util.Arrays.copyOfRange(bytes, start, cr ? i - 1 : i), cr ? CRLF : LF,
                            false));
                    start = i + 1;
                }
            }
            if (start < bytes.length) {
                lines.add(new Line(java.util.Arrays.copyOfRange(bytes, start, bytes.length), NONE, false));
            }
            return new Reference(bom, lines, eol == null ? LF : eol);
        }

        int size() {
            return lines.size();
        }

        String text(int lineNo) {
            return new String(lines.get(lineNo - 1).content(), StandardCharsets.UTF_8);
        }

        Reference apply(EditScript script) {
            Map<Long, EditScript.Op> ranges = new TreeMap<>();
            Map<Long, List<EditScript.Op>> inserts = new TreeMap<>();
            long n = lines.size();
            for (EditScript.Op o : script.ops) {
                if (o.kind() == EditScript.Kind.REPLACE) {
                    ranges.put(o.first(), o);
                } else if (o.kind() == EditScript.Kind.INSERT) {
                    inserts.computeIfAbsent(o.atEnd() ? n : o.first(), k -> new ArrayList<>()).add(o);
                }
            }
            List<Line> out = new ArrayList<>();
            insertAfter(0, inserts, out);
            long i = 1;
            while (i <= n) {
                EditScript.Op r = ranges.get(i);
                if (r != null) {
                    r.body().forEach(s -> out.add(new Line(TextFileTest.bytes(s), eol, true)));
                    i = r.last() + 1;
                    insertAfter(r.last(), inserts, out);
                } else {
                    out.add(lines.get((int) (i - 1)));
                    insertAfter(i, inserts, out);
                    i++;
                }
            }
            boolean finalNewline = lines.isEmpty() || lines.get(lines.size() - 1).end().length > 0;
            for (int k = 0; k < out.size(); k++) {
                Line l = out.get(k);
                byte[] end = k == out.size() - 1 ? (finalNewline ? (l.end().length > 0 ? l.end() : eol) : NONE)
                        : (l.end().length > 0 ? l.end() : eol);
                if (end != l.end()) {
                    out.set(k, new Line(l.content(), end, l.changed()));
                }
            }
            return new Reference(bom, out, eol);
        }

        private void insertAfter(long at, Map<Long, List<EditScript.Op>> inserts, List<Line> out) {
            for (EditScript.Op o : inserts.getOrDefault(at, List.of())) {
                o.body().forEach(s -> out.add(new Line(TextFileTest.bytes(s), eol, true)));
            }
        }

        BitSet changedLines() {
            BitSet b = new BitSet();
            for (int k = 0; k < lines.size(); k++) {
                if (lines.get(k).changed()) {
                    b.set(k + 1);
                }
            }
            return b;
        }

        BitSet carriedOver(Reference before, BitSet seenBefore) {
            IdentityHashMap<Line, Integer> oldNumbers = new IdentityHashMap<>();
            for (int k = 0; k < before.lines.size(); k++) {
                oldNumbers.put(before.lines.get(k), k + 1);
            }
            BitSet b = new BitSet();
            for (int k = 0; k < lines.size(); k++) {
                Integer old = oldNumbers.get(lines.get(k));
                if (old != null && seenBefore.get(old)) {
                    b.set(k + 1);
                }
            }
            return b;
        }

        byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (bom) {
                out.writeBytes(BOM);
            }
            for (Line l : lines) {
                out.writeBytes(l.content());
                out.writeBytes(l.end());
            }
            return out.toByteArray();
        }
    }
}
