package pi.host.console.internal.render;

import org.jline.utils.AttributedStyle;

/** The few styles the console uses; they become colours only where the screen shows colours. */
public final class Styles {

    public static final AttributedStyle PLAIN = AttributedStyle.DEFAULT;
    public static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();
    public static final AttributedStyle BOLD = AttributedStyle.BOLD;
    public static final AttributedStyle ADDED = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
    public static final AttributedStyle REMOVED = AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
    public static final AttributedStyle HUNK = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
    public static final AttributedStyle TAG = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
    public static final AttributedStyle ERROR = AttributedStyle.BOLD.foreground(AttributedStyle.RED);
    public static final AttributedStyle STDERR = AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
    public static final AttributedStyle OK = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
    public static final AttributedStyle WARN = AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW);
    public static final AttributedStyle MATCH = AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW);
    public static final AttributedStyle KEY = AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW);

    private Styles() {
    }
}
