package pi.host.console.internal.input;

import java.util.function.IntPredicate;

/** A cursor over one line for {@link LineParser}; {@link #peek()} is 0 at the end. */
final class Scanner {

    private final String text;
    private int at;

    Scanner(String text) {
        this.text = text;
    }

    boolean atEnd() {
        return at >= text.length();
    }

    char peek() {
        return atEnd() ? 0 : text.charAt(at);
    }

    char next() {
        return text.charAt(at++);
    }

    int position() {
        return at;
    }

    void seek(int position) {
        at = position;
    }

    String rest() {
        return text.substring(at);
    }

    void skipSpace() {
        while (!atEnd() && Character.isWhitespace(peek())) {
            at++;
        }
    }

    String takeWhile(IntPredicate keep) {
        int start = at;
        while (!atEnd() && keep.test(peek())) {
            at++;
        }
        return text.substring(start, at);
    }

    /** After an opening {@code "}: appends the content up to the closing quote, resolving escapes. */
    void doubleQuoted(String where, StringBuilder out) throws InputError {
        int opened = at - 1;
        while (!atEnd()) {
            char c = next();
            if (c == '"') {
                return;
            }
            if (c == '\\' && !atEnd()) {
                char e = next();
                switch (e) {
                    case '"', '\\' -> out.append(e);
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    // any other backslash stays: Grep patterns like "\d+" mean what they say
                    default -> out.append('\\').append(e);
                }
            } else {
                out.append(c);
            }
        }
        throw unbalanced('"', where, opened);
    }

    /** After an opening {@code '}: appends the content up to the closing quote, literally. */
    void singleQuoted(String where, StringBuilder out) throws InputError {
        int opened = at - 1;
        int close = text.indexOf('\'', at);
        if (close < 0) {
            throw unbalanced('\'', where, opened);
        }
        out.append(text, at, close);
        at = close + 1;
    }

    /**
     * At a {@code {} or {@code [}: the JSON text up to its matching bracket (brackets inside JSON
     * strings do not count).
     */
    String balancedJson(String where) throws InputError {
        int start = at;
        int depth = 0;
        boolean inString = false;
        while (!atEnd()) {
            char c = next();
            if (inString) {
                if (c == '\\' && !atEnd()) {
                    next();
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == 0) {
                    return text.substring(start, at);
                }
            }
        }
        throw new InputError("the JSON value of " + where + " is not closed (" + (inString ? "a string is open" : depth
                + " bracket" + (depth == 1 ? "" : "s") + " open") + "): a JSON value must end on the same line");
    }

    private InputError unbalanced(char quote, String where, int opened) {
        String example = quote == '"' ? "command=\"ls -la\"" : "pattern='a b'";
        return new InputError("unbalanced " + quote + " in " + where + " (opened at character " + (opened + 1)
                + "): close the quote, e.g. " + example + "; a literal " + quote + " inside is written "
                + (quote == '"' ? "\\\"" : "inside double quotes"));
    }
}
