package pi.host.console.internal.screen;

import java.util.ArrayList;
import java.util.List;
import org.jline.reader.CompletingParsedLine;
import org.jline.reader.Parser;

/**
 * JLine's view of a line. Accepting a line never fails here (JLine would otherwise open a
 * continuation prompt for an unbalanced quote): the console's {@code LineParser} reads it and says
 * what is wrong. For completion the line is split at whitespace outside quotes and JSON brackets,
 * leniently, and the word under the cursor is the one completed.
 */
final class LineWords implements Parser {

    @Override
    public org.jline.reader.ParsedLine parse(String line, int cursor, ParseContext context) {
        if (context == ParseContext.ACCEPT_LINE || context == ParseContext.SECONDARY_PROMPT) {
            return new Words(line, cursor, List.of(line), 0, cursor);
        }
        return split(line, cursor);
    }

    /** The words of {@code line} (raw, quotes kept) and which one the cursor is in. */
    static Words split(String line, int cursor) {
        List<int[]> spans = new ArrayList<>();
        int start = -1;
        char quote = 0;
        int depth = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    i++;
                }
                continue;
            }
            if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && depth > 0) {
                depth--;
            }
            if (Character.isWhitespace(c) && depth == 0 && quote == 0) {
                if (start >= 0) {
                    spans.add(new int[] {start, i});
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
        }
        if (start >= 0) {
            spans.add(new int[] {start, line.length()});
        }
        List<String> words = new ArrayList<>();
        int wordIndex = -1;
        int wordCursor = 0;
        int before = 0;
        for (int[] span : spans) {
            if (cursor >= span[0] && cursor <= span[1]) {
                wordIndex = words.size();
                wordCursor = cursor - span[0];
            } else if (span[1] < cursor) {
                before++;
            }
            words.add(line.substring(span[0], span[1]));
        }
        if (wordIndex < 0) {
            // the cursor is in whitespace: completing starts a new word there
            wordIndex = before;
            words.add(wordIndex, "");
        }
        return new Words(line, cursor, words, wordIndex, wordCursor);
    }

    /** A split line. */
    record Words(String line, int cursor, List<String> words, int wordIndex, int wordCursor)
            implements CompletingParsedLine {
        @Override
        public String word() {
            return words.get(wordIndex);
        }

        /** Candidates are inserted as they are: a completed path with a space is for the person to quote. */
        @Override
        public CharSequence escape(CharSequence candidate, boolean complete) {
            return candidate;
        }

        @Override
        public int rawWordCursor() {
            return wordCursor;
        }

        @Override
        public int rawWordLength() {
            return word().length();
        }
    }
}
