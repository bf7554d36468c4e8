package pi.host.console.internal.screen;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.AttributedString;
import org.jline.utils.InfoCmp;
import org.jline.utils.NonBlockingReader;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.Text;

/**
 * The console on a real terminal, through JLine: a line editor with history (in the data dir),
 * completion and the console's own line grammar (an unbalanced quote is reported, never a
 * continuation prompt); one-key answers read in raw mode; colours only when wanted and the terminal
 * has them; every row fitted to the width the terminal has at that moment.
 */
public final class TerminalScreen implements Screen {

    private static final long KEY_POLL_MILLIS = 50;
    /**
     * A key counts only when nothing follows it this soon: an escape sequence (an arrow or function
     * key: ESC O A, ESC [ 1 ; 5 D), a paste or a held key is a burst, and no character of a burst
     * answers a one-key question (the 'O' of an arrow key is not "allow once").
     */
    static final long BURST_MILLIS = 30;
    /**
     * How long a one-key question's screen is shown before its keys count: what arrives meanwhile was
     * typed (or pasted) before the person could have read it, and must not answer a permission card.
     */
    static final long ARMING_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(300);

    private final Terminal terminal;
    private final LineReader reader;
    private final boolean colors;
    private final Object lock = new Object();
    private final List<Row> deferred = new ArrayList<>();
    private boolean reading;
    private volatile Runnable onInterrupt;
    private Attributes promptAttributes;

    private TerminalScreen(Terminal terminal, Completer completer, Path history, boolean colorWanted) {
        this.terminal = terminal;
        this.reader = LineReaderBuilder.builder().terminal(terminal).appName("pi-host")
                .parser(new LineWords()).completer(completer)
                .variable(LineReader.HISTORY_FILE, history)
                .variable(LineReader.HISTORY_FILE_SIZE, 2000)
                // the console's grammar has its own quotes and '!' is an ordinary character in commands
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.HISTORY_IGNORE_SPACE, true)
                .option(LineReader.Option.AUTO_FRESH_LINE, true)
                .build();
        Integer max = terminal.getNumericCapability(InfoCmp.Capability.max_colors);
        this.colors = colorWanted && max != null && max >= 8 && !Terminal.TYPE_DUMB.equals(terminal.getType())
                && !Terminal.TYPE_DUMB_COLOR.equals(terminal.getType());
        terminal.handle(Terminal.Signal.INT, signal -> {
            Runnable r = onInterrupt;
            if (r != null) {
                r.run();
            }
        });
    }

    /** A screen on a given terminal (tests drive one over streams). */
    static TerminalScreen on(Terminal terminal, Completer completer, Path history, boolean colorWanted) {
        return new TerminalScreen(terminal, completer, history, colorWanted);
    }

    /**
     * Opens the process's terminal (the launcher leaves file descriptors 0 and 1 to the console).
     * JLine finds its terminal providers through resources of its own bundle, so they are looked up
     * with its class loader rather than whatever the calling thread carries.
     */
    public static TerminalScreen open(Completer completer, Path history, boolean colorWanted) throws IOException {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(TerminalBuilder.class.getClassLoader());
        try {
            Terminal terminal = TerminalBuilder.builder().system(true).name("pi-host").dumb(false)
                    .nativeSignals(true).build();
            return new TerminalScreen(terminal, completer, history, colorWanted);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    /** Whether rows are shown in colour. */
    public boolean colors() {
        return colors;
    }

    @Override
    public String readLine(String prompt) {
        synchronized (lock) {
            flushDeferred();
            reading = true;
        }
        try {
            return reader.readLine(prompt);
        } catch (UserInterruptException e) {
            return "";
        } catch (EndOfFileException | java.io.IOError e) {
            return null; // Ctrl-D, or the terminal went away (closed, or restored by a stopping host)
        } finally {
            synchronized (lock) {
                reading = false;
            }
        }
    }

    @Override
    public int readKey(Row question, String keys, BooleanSupplier stillAsked) {
        // one key, not a line: raw mode (a call already runs in it; a plan's screen comes after the call)
        Attributes cooked = promptAttributes == null ? terminal.enterRawMode() : null;
        try {
            return readKeyRaw(question, keys, stillAsked);
        } finally {
            if (cooked != null) {
                terminal.setAttributes(cooked);
            }
        }
    }

    private int readKeyRaw(Row question, String keys, BooleanSupplier stillAsked) {
        NonBlockingReader in = terminal.reader();
        long armed = System.nanoTime() + ARMING_NANOS;
        while (System.nanoTime() - armed < 0) {
            if (!stillAsked.getAsBoolean()) {
                return WITHDRAWN;
            }
            drain(in);
        }
        print(List.of(question));
        while (true) {
            if (!stillAsked.getAsBoolean()) {
                return WITHDRAWN;
            }
            int c;
            try {
                c = in.read(KEY_POLL_MILLIS);
            } catch (IOException e) {
                return END;
            }
            if (c == NonBlockingReader.READ_EXPIRED) {
                continue;
            }
            if (c == NonBlockingReader.EOF) {
                return END;
            }
            if (burst(in)) {
                drain(in);
            } else if (c == '\r' || c == '\n' || c == 4) { // Enter, or Ctrl-D: the safe answer
                return ENTER;
            } else if (keys.indexOf(Character.toLowerCase(c)) >= 0) {
                return Character.toLowerCase(c);
            }
            terminal.puts(InfoCmp.Capability.bell);
            terminal.flush();
        }
    }

    /** Whether another character follows at once (the one just read was part of a sequence or a paste). */
    private static boolean burst(NonBlockingReader in) {
        try {
            return in.peek(BURST_MILLIS) >= 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Drops what was typed before the question appeared (type-ahead, the rest of a paste); waits up to 10 ms. */
    private static void drain(NonBlockingReader in) {
        try {
            while (in.read(10) >= 0) {
                // discarded
            }
        } catch (IOException e) {
            // the next read reports it
        }
    }

    @Override
    public String readAnswer(String prompt) {
        reader.setVariable(LineReader.DISABLE_HISTORY, true);
        try {
            return reader.readLine(prompt);
        } catch (UserInterruptException | EndOfFileException e) {
            return null;
        } finally {
            reader.setVariable(LineReader.DISABLE_HISTORY, false);
        }
    }

    @Override
    public void print(List<Row> rows) {
        synchronized (lock) {
            PrintWriter w = terminal.writer();
            int width = width();
            for (Row r : rows) {
                for (AttributedString piece : Text.wrap(r, width)) {
                    w.println(show(piece));
                }
            }
            w.flush();
        }
    }

    @Override
    public void write(AttributedString piece) {
        synchronized (lock) {
            terminal.writer().print(show(piece));
            terminal.writer().flush();
        }
    }

    @Override
    public void notice(List<Row> rows) {
        synchronized (lock) {
            if (!reading) {
                deferred.addAll(rows);
                return;
            }
            int width = width();
            for (Row r : rows) {
                for (AttributedString piece : Text.wrap(r, width)) {
                    reader.printAbove(colors ? piece : new AttributedString(piece.toString()));
                }
            }
        }
    }

    /** Notices that came while the console was busy, shown before the next prompt. */
    private void flushDeferred() {
        if (!deferred.isEmpty()) {
            List<Row> rows = new ArrayList<>(deferred);
            deferred.clear();
            print(rows);
        }
    }

    private String show(AttributedString piece) {
        return colors ? piece.toAnsi(terminal) : piece.toString();
    }

    @Override
    public int width() {
        int w = terminal.getWidth();
        return w > 0 ? w : 80;
    }

    @Override
    public boolean interactive() {
        return true;
    }

    @Override
    public void busy(Runnable interrupt) {
        promptAttributes = terminal.enterRawMode();
        onInterrupt = interrupt;
    }

    @Override
    public void idle() {
        onInterrupt = null;
        if (promptAttributes != null) {
            terminal.setAttributes(promptAttributes);
            promptAttributes = null;
        }
        synchronized (lock) {
            flushDeferred();
        }
    }

    @Override
    public void close() {
        try {
            terminal.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
