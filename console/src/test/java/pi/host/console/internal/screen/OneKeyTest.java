package pi.host.console.internal.screen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.console.internal.render.Row;

/**
 * One-key questions on a terminal (a JLine terminal over streams): the keys a person presses once the
 * question is shown answer it; nothing else does.
 */
class OneKeyTest {

    /** Keys the "person" presses; read by the terminal like a tty's input. */
    private final BlockingQueue<Integer> keyboard = new LinkedBlockingQueue<>();
    private final StringBuilder shown = new StringBuilder();
    private volatile String pressWhenAsked;
    private volatile boolean asked;
    private final AtomicInteger pollsAfterQuestion = new AtomicInteger();

    @TempDir
    Path data;

    private Terminal terminal;

    private TerminalScreen screen() throws Exception {
        InputStream in = new InputStream() {
            @Override
            public int read() {
                try {
                    return keyboard.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
            }
        };
        OutputStream out = new OutputStream() {
            @Override
            public synchronized void write(int b) {
                shown.append((char) b);
                if (!asked && shown.indexOf("keys?") >= 0) {
                    asked = true;
                    String keys = pressWhenAsked;
                    if (keys != null) {
                        keys.getBytes(StandardCharsets.UTF_8);
                        for (byte k : keys.getBytes(StandardCharsets.UTF_8)) {
                            keyboard.add((int) k);
                        }
                    }
                }
            }
        };
        terminal = TerminalBuilder.builder().system(false).streams(in, out).type("xterm").build();
        return TerminalScreen.on(terminal, null, data.resolve("history"), false);
    }

    @AfterEach
    void close() throws Exception {
        if (terminal != null) {
            terminal.close();
        }
    }

    /** Asked until the question has been shown and polled a few times with nothing answering it. */
    private boolean stillAsked() {
        return !asked || pollsAfterQuestion.incrementAndGet() < 8;
    }

    private int ask(String pressed) throws Exception {
        pressWhenAsked = pressed;
        return screen().readKey(Row.of("keys?"), "osd", this::stillAsked);
    }

    @Test
    void aKeyPressedOnceTheQuestionShowsAnswersIt() throws Exception {
        assertThat(ask("o")).isEqualTo('o');
    }

    @Test
    void enterIsTheSafeAnswer() throws Exception {
        assertThat(ask("\r")).isEqualTo(Screen.ENTER);
    }

    /** Pins: a key typed before the question was shown must never answer it. */
    @Test
    void keysTypedBeforeTheQuestionAreDropped() throws Exception {
        keyboard.add((int) 'o');
        assertThat(ask(null)).isEqualTo(Screen.WITHDRAWN);
    }

    /** Pins: the 'O' of an arrow or function key (ESC O A, ESC O P) must not answer "allow once". */
    @Test
    void anEscapeSequenceIsNoAnswer() throws Exception {
        assertThat(ask("\u001bOA")).isEqualTo(Screen.WITHDRAWN);
    }

    /** Pins: text pasted at a card (a burst of characters) must not answer it with one of its letters. */
    @Test
    void aPasteIsNoAnswer() throws Exception {
        assertThat(ask("hello")).isEqualTo(Screen.WITHDRAWN);
        assertThat(shown.toString()).contains("\u0007"); // the bell said so
    }
}
