package pi.host.console.internal.screen;

import java.util.List;
import java.util.function.BooleanSupplier;
import org.jline.utils.AttributedString;
import pi.host.console.internal.render.Row;

/**
 * Where the console reads what the person types and shows what happened: a real terminal
 * ({@link TerminalScreen}, JLine) or plain streams when stdin is not a terminal ({@link PipedScreen}).
 * Everything but {@link #notice} is called from the console's own thread.
 */
public interface Screen extends AutoCloseable {

    /** A one-key answer's value when the question went away before it was answered (a withdrawn card). */
    int WITHDRAWN = 0;
    /** A one-key answer's value at the end of input. */
    int END = -1;
    /** A one-key answer's value for Enter. */
    int ENTER = '\n';

    /** The next line typed at the prompt; "" after Ctrl-C at the prompt; null at the end of input (Ctrl-D). */
    String readLine(String prompt);

    /**
     * Shows {@code question} (the row naming the keys) and waits for one of {@code keys} (lower case)
     * or Enter. On a terminal, what was typed before the question could be read does not answer it:
     * the question appears only after a short pause in which typed-ahead keys are dropped, a key counts
     * only when it comes alone (not inside an escape sequence or a paste), and other keys are ignored. In piped mode the next line's first character is returned whatever it is.
     *
     * @param stillAsked polled while waiting; once false the wait ends with {@link #WITHDRAWN}
     */
    int readKey(Row question, String keys, BooleanSupplier stillAsked);

    /** A typed answer (asktool); null at the end of input or after Ctrl-C. */
    String readAnswer(String prompt);

    /** Shows rows, each wrapped to the width. */
    void print(List<Row> rows);

    /** Writes a piece of streamed output as it is (it carries its own line ends). */
    void write(AttributedString piece);

    /** Shows rows from any thread: above the prompt while a line is being typed, else after the current output. */
    void notice(List<Row> rows);

    /** Columns to fit output to; 0 means "do not wrap" (piped mode). */
    int width();

    /** Whether a person is at a terminal (keys, colours, completion) rather than a script. */
    boolean interactive();

    /** A call runs: typed keys are not echoed, and Ctrl-C runs {@code onInterrupt}. */
    void busy(Runnable onInterrupt);

    /** The call ended: back to the prompt's terminal settings. */
    void idle();

    /** Restores the terminal. */
    @Override
    void close();
}
