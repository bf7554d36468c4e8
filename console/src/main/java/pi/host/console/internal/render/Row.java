package pi.host.console.internal.render;

import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * One logical line of output. When it is wider than the screen it wraps, and the continuation rows
 * are indented by {@code hang} columns, so that wrapped content stays beside its gutter (a line
 * number, a diff sign) instead of running under it.
 */
public record Row(AttributedString text, int hang) {

    public static Row of(String text) {
        return new Row(new AttributedString(Text.sanitize(text)), 0);
    }

    public static Row of(String text, AttributedStyle style) {
        return new Row(new AttributedString(Text.sanitize(text), style), 0);
    }

    /** Text as the person reads it, without styles. */
    public String plain() {
        return text.toString();
    }
}
