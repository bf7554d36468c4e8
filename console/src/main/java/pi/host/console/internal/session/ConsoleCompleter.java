package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion: tool names and slash commands in the first word; a tool's argument names
 * ({@code path=}) after it; for {@code path}/{@code file_path} the workspace's entries; for an enum
 * or boolean argument its values; the arguments of the slash commands. Names come from the cached
 * catalog; paths are names in the workspace root's tree only (nothing is read, nothing outside it is
 * listed).
 */
final class ConsoleCompleter implements Completer {

    private static final Set<String> PATH_KEYS = Set.of("path", "file_path");
    private static final int MAX_ENTRIES = 500;

    private volatile Context context;

    void attach(Context context) {
        this.context = context;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> out) {
        Context c = context;
        if (c == null) {
            return;
        }
        List<String> words = line.words();
        String word = line.word().substring(0, Math.min(line.wordCursor(), line.word().length()));
        if (line.wordIndex() == 0) {
            Commands.HELP.keySet().forEach(k -> out.add(new Candidate("/" + k, "/" + k, "commands", null, null, null, true)));
            c.catalog.entries().values().forEach(e -> out.add(new Candidate(e.name(), e.name(),
                    e.onDemand() ? "on demand" : "tools", null, null, null, true)));
            return;
        }
        String first = words.get(0);
        if (first.startsWith("/")) {
            command(c, first.substring(1), line.wordIndex(), out);
            return;
        }
        JsonNode schema = c.catalog.schema(first);
        int eq = word.indexOf('=');
        if (eq < 0) {
            for (String name : pi.host.console.internal.input.Usage.names(schema)) {
                out.add(new Candidate(name + "=", name + "=", null, description(schema, name), null, null, false));
            }
            return;
        }
        String key = word.substring(0, eq);
        String typed = word.substring(eq + 1);
        if (PATH_KEYS.contains(key) || (first.equals("Glob") || first.equals("Grep")) && key.equals("path")) {
            paths(c.workspace, key + "=", typed, out);
            return;
        }
        JsonNode property = schema == null ? null : schema.path("properties").path(key);
        if (property != null && property.has("enum")) {
            property.get("enum").forEach(v -> out.add(new Candidate(key + "=" + v.asText())));
        } else if (property != null && "boolean".equals(property.path("type").asText())) {
            out.add(new Candidate(key + "=true"));
            out.add(new Candidate(key + "=false"));
        }
    }

    private static String description(JsonNode schema, String name) {
        String d = schema == null ? "" : schema.path("properties").path(name).path("description").asText("");
        return d.isEmpty() ? null : d;
    }

    private static void command(Context c, String name, int index, List<Candidate> out) {
        List<String> values = new ArrayList<>();
        switch (name) {
            case "mode" -> values.addAll(List.of("agent", "plan", "goal"));
            case "permissions" -> values.addAll(List.of("ask", "accept-edits", "auto"));
            case "help" -> values.addAll(c.catalog.names());
            case "rollback" -> values.addAll(c.snapshots);
            case "plugins" -> values.addAll(index == 1 ? List.of("grant", "revoke") : List.of());
            case "background" -> values.addAll(index == 1 ? List.of("read", "stop", "remove") : c.tasks);
            default -> {
            }
        }
        if (index == 1 || name.equals("background")) {
            values.forEach(v -> out.add(new Candidate(v)));
        }
    }

    /** Entries of the workspace folder the typed path is in; folders end in '/' and keep completing. */
    static void paths(Path workspace, String prefix, String typed, List<Candidate> out) {
        int slash = typed.lastIndexOf('/');
        String folder = slash < 0 ? "" : typed.substring(0, slash + 1);
        if (typed.startsWith("/") || folder.contains("..")) {
            return; // outside paths are typed, not listed
        }
        Path dir = workspace.resolve(folder).normalize();
        if (!dir.startsWith(workspace) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        int n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                if (n++ >= MAX_ENTRIES) {
                    break;
                }
                String name = e.getFileName().toString();
                boolean isDir = Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS);
                String value = prefix + folder + name + (isDir ? "/" : "");
                out.add(new Candidate(value, name + (isDir ? "/" : ""), null, null, null, null, !isDir));
            }
        } catch (IOException e) {
            // an unreadable folder completes to nothing
        }
    }
}
