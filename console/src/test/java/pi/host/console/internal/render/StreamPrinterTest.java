package pi.host.console.internal.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StreamPrinterTest {

    private final StringBuilder screen = new StringBuilder();
    private final AtomicInteger width = new AtomicInteger(20);
    private final StreamPrinter printer = new StreamPrinter(piece -> screen.append(piece.toString()), width::get);

    @Test
    void linesAreMarkedByStreamAndPartialLinesShowAtOnce() {
        printer.chunk(false, "one\ntw");
        assertThat(screen).hasToString("  one\n  tw");
        printer.chunk(false, "o\n");
        printer.chunk(true, "bad\n");
        printer.finish();
        assertThat(screen).hasToString("  one\n  two\n! bad\n");
        assertThat(printer.printed()).isTrue();
    }

    @Test
    void aChangeOfStreamStartsANewRow() {
        printer.chunk(false, "progress...");
        printer.chunk(true, "warning\n");
        printer.chunk(false, "done");
        printer.finish();
        assertThat(screen).hasToString("  progress...\n! warning\n  done\n");
    }

    @Test
    void longLinesContinueBesideTheMarkAtTheWidthOfTheMoment() {
        printer.chunk(false, "x".repeat(40));
        width.set(10);
        printer.chunk(false, "y".repeat(10) + "\n");
        assertThat(screen.toString().split("\n", -1)).containsExactly(
                "  " + "x".repeat(18), "  " + "x".repeat(18), "  xxxxyyyy", "  yyyyyy", "");
    }

    @Test
    void controlCharactersOfACommandAreShownNotObeyed() {
        printer.chunk(false, "a\u001b[2Jb\tc\r\n");
        assertThat(screen).hasToString("  a^[[2Jb c\n"); // the tab stop counts from the line's start
    }

    @Test
    void nothingPrintedNothingToFinish() {
        printer.chunk(false, "");
        printer.finish();
        assertThat(screen).isEmpty();
        assertThat(printer.printed()).isFalse();
    }
}
