package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.tools.internal.process.Descriptors;

/** How rg's stdout is cut into records, with a stand-in "rg" (a script) printing known output. */
class RgTest {

    @TempDir
    Path tmp;
    Fixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new Fixture(tmp);
    }

    /** An executable that ignores its arguments and runs {@code body}. */
    Path fakeRg(String body) throws Exception {
        Path script = tmp.resolve("fake-rg");
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    @Test
    void recordsLongerThanOneReadAndAcrossReadsArriveWhole() throws Exception {
        // 300,000 records of 9 to 14 bytes (about 3.5 MB), and one of 200,000 bytes: many 64 KiB
        // reads end inside a record, and one record is longer than the buffer
        Path rg = fakeRg("seq 1 300000 | sed 's/^/record-/'; head -c 200000 /dev/zero | tr '\\0' x; echo; printf tail");
        List<String> got = new ArrayList<>();
        int rc = Rg.run(rg, List.of(), tmp, fx.bareCall(), (byte) '\n', (buf, off, len) -> {
            got.add(new String(buf, off, len, StandardCharsets.UTF_8));
            return true;
        });
        assertThat(rc).isZero();
        assertThat(got).hasSize(300_002);
        for (int i = 0; i < 300_000; i++) {
            if (!got.get(i).equals("record-" + (i + 1))) {
                assertThat(got.get(i)).as("record %d", i).isEqualTo("record-" + (i + 1));
            }
        }
        assertThat(got.get(300_000)).hasSize(200_000).matches("x+");
        assertThat(got.get(300_001)).isEqualTo("tail"); // the last record has no delimiter
    }

    @Test
    void theDelimiterSearchStaysInsideItsRange() {
        byte[] b = "a\nbc\n\nd".getBytes(StandardCharsets.UTF_8);
        assertThat(Rg.next(b, 0, b.length, (byte) '\n')).isEqualTo(1);
        assertThat(Rg.next(b, 2, b.length, (byte) '\n')).isEqualTo(4);
        assertThat(Rg.next(b, 5, b.length, (byte) '\n')).isEqualTo(5); // an empty record
        assertThat(Rg.next(b, 6, b.length, (byte) '\n')).isEqualTo(-1); // "d": no delimiter yet
        assertThat(Rg.next(b, 0, 1, (byte) '\n')).isEqualTo(-1); // the end is exclusive
        assertThat(Rg.next(b, 3, 3, (byte) '\n')).isEqualTo(-1); // an empty range
    }

    @Test
    void aReceiverThatHasEnoughStopsRg() throws Exception {
        Path marker = tmp.resolve("finished");
        Path rg = fakeRg("seq 1 100000000; touch '" + marker + "'");
        int[] seen = {0};
        int rc = Rg.run(rg, List.of(), tmp, fx.bareCall(), (byte) '\n', (buf, off, len) -> ++seen[0] < 10);
        assertThat(rc).isZero();
        assertThat(seen[0]).isEqualTo(10);
        assertThat(marker).doesNotExist(); // killed long before it could print 10^8 lines
    }

    /** Pins: rg, a child of the host, gets /dev/null, its own stdout pipe and /dev/null for stderr, nothing else (issue 12.1). */
    @Test
    void rgHasOnlyDevNullAndItsOwnPipe() throws Exception {
        Path rg = Descriptors.script(tmp.resolve("fake-rg"), Descriptors.LISTING);
        StringBuilder listing = new StringBuilder();
        Rg.run(rg, List.of(), tmp, fx.bareCall(), (byte) '\n', (buf, off, len) -> {
            listing.append(new String(buf, off, len, StandardCharsets.UTF_8)).append('\n');
            return true;
        });
        Map<Integer, String> fds = Descriptors.parse(listing.toString());
        assertThat(fds.keySet()).containsExactly(0, 1, 2);
        assertThat(fds.get(0)).isEqualTo("/dev/null");
        assertThat(fds.get(1)).startsWith("pipe:[");
        assertThat(fds.get(2)).isEqualTo("/dev/null");
        assertThat(fds.values()).doesNotContainAnyElementsOf(Descriptors.channelsOfThisJvm());
    }

    @Test
    void nulDelimitedRecordsAsFilesModeReadsThem() throws Exception {
        Path rg = fakeRg("printf 'a/b.txt\\0c d.txt\\0'");
        List<String> got = new ArrayList<>();
        Rg.run(rg, List.of(), tmp, fx.bareCall(), (byte) 0, (buf, off, len) -> got.add(new String(buf, off, len,
                StandardCharsets.UTF_8)));
        assertThat(got).containsExactly("a/b.txt", "c d.txt");
    }
}
