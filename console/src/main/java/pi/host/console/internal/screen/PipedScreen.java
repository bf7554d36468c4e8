package pi.host.console.internal.screen;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.jline.utils.AttributedString;
import pi.host.console.internal.render.Row;

/**
 * The console when stdin is not a terminal: the same lines read from stdin (a script), plain text on
 * stdout, no colours, no wrapping. Each line read is echoed after {@code > } so that the output is a
 * readable transcript. A card's answer is the next line (its first character); at the end of input
 * a card is denied.
 */
public final class PipedScreen implements Screen {

    private final BufferedReader in;
    private final PrintStream out;
    private final Object lock = new Object();

    public PipedScreen(InputStream in, OutputStream out) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = new PrintStream(out, false, StandardCharsets.UTF_8);
    }

    @Override
    public String readLine(String prompt) {
        String line = next();
        if (line != null) {
            echo(line);
        }
        return line;
    }

    @Override
    public int readKey(Row question, String keys, BooleanSupplier stillAsked) {
        print(List.of(question));
        String line = next();
        if (line == null) {
            return END;
        }
        echo(line);
        String answer = line.strip().toLowerCase(Locale.ROOT);
        return answer.isEmpty() ? ENTER : answer.charAt(0);
    }

    @Override
    public String readAnswer(String prompt) {
        return readLine(prompt);
    }

    private String next() {
        try {
            return in.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void echo(String line) {
        synchronized (lock) {
            out.println("> " + line);
            out.flush();
        }
    }

    @Override
    public void print(List<Row> rows) {
        synchronized (lock) {
            for (Row r : rows) {
                out.println(r.plain());
            }
            out.flush();
        }
    }

    @Override
    public void write(AttributedString piece) {
        synchronized (lock) {
            out.print(piece.toString());
            out.flush();
        }
    }

    @Override
    public void notice(List<Row> rows) {
        print(rows);
    }

    @Override
    public int width() {
        return 0;
    }

    @Override
    public boolean interactive() {
        return false;
    }

    @Override
    public void busy(Runnable onInterrupt) {
        // a script has no Ctrl-C of its own: SIGINT stops the host as the JVM's default says
    }

    @Override
    public void idle() {
    }

    @Override
    public void close() {
        synchronized (lock) {
            out.flush();
        }
    }
}
