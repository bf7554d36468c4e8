package pi.host.core.internal.catalog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds deferred tools for a ToolSearch query: an exact name finds that tool alone; otherwise the
 * query's words are matched against names (weighted) and descriptions, best first.
 */
public final class ToolSearch {

    /** Most tools one capability query activates. */
    public static final int MAX_RESULTS = 5;

    private ToolSearch() {
    }

    /** A candidate: its exposed name and the text it is found by. */
    public record Candidate(String name, String text) {
    }

    public static List<String> search(String query, List<Candidate> deferred) {
        for (Candidate c : deferred) {
            if (c.name().equals(query.strip())) {
                return List.of(c.name());
            }
        }
        List<String> words = new ArrayList<>();
        for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() >= 2) {
                words.add(w);
            }
        }
        List<Map.Entry<String, Integer>> scored = new ArrayList<>();
        for (Candidate c : deferred) {
            String name = c.name().toLowerCase(Locale.ROOT);
            String text = c.text().toLowerCase(Locale.ROOT);
            int score = 0;
            for (String w : words) {
                score += (name.contains(w) ? 3 : 0) + (text.contains(w) ? 1 : 0);
            }
            if (score > 0) {
                scored.add(Map.entry(c.name(), score));
            }
        }
        scored.sort(Comparator.<Map.Entry<String, Integer>>comparingInt(Map.Entry::getValue).reversed()
                .thenComparing(Map.Entry::getKey));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < scored.size() && i < MAX_RESULTS; i++) {
            out.add(scored.get(i).getKey());
        }
        return out;
    }
}
