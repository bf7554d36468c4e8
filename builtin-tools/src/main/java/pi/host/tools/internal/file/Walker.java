package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The in-process walk used when {@code rg} is missing or fails, with ripgrep's default filters:
 * hidden entries (a name starting with {@code .}) are skipped; {@code .gitignore}, {@code .ignore}
 * and {@code .rgignore} files are honoured in the walked directories and in their ancestors up to
 * the workspace root (later files and later lines win; {@code .ignore} and {@code .rgignore} over
 * {@code .gitignore}); a git repository is not required, global and {@code .git/info/exclude}
 * ignores are not read (rg is run with the same switches). Symbolic links are never followed and
 * never listed, so a walk cannot leave its root.
 *
 * <p>The gitignore support is the documented subset (docs/decisions.md): blank lines, {@code #}
 * comments, {@code !} negation, a trailing {@code /} for directories, anchoring by a leading or
 * inner {@code /}, {@code *}, {@code ?}, {@code **}, classes and {@code \} escapes. An ignored
 * directory is not entered, so a negation cannot re-include a file below it (as in git).
 */
final class Walker {

    private static final String[] IGNORE_FILES = {".gitignore", ".ignore", ".rgignore"};

    private record Rule(String base, Pattern regex, boolean negate, boolean dirOnly) {
    }

    private Walker() {
    }

    /**
     * Every regular, non-ignored file under {@code root} for which {@code keep} holds of its path
     * relative to {@code root} ({@code /}-separated), unordered; stops once {@code max} are found.
     * {@code top} is the directory whose ancestors' ignore files stop counting (the workspace root
     * when root is inside it, else root itself).
     */
    static List<String> files(Path top, Path root, Predicate<String> keep, int max, BooleanSupplier cancelled)
            throws IOException {
        List<Rule> rules = new ArrayList<>();
        String rootRel = "";
        if (!top.equals(root) && root.startsWith(top)) {
            Path dir = top;
            String rel = "";
            for (Path name : top.relativize(root)) {
                rules.addAll(load(dir, rel));
                rel = rel + name + "/";
                dir = dir.resolve(name);
            }
            rootRel = rel;
        }
        List<String> out = new ArrayList<>();
        walk(root, rootRel, rootRel.length(), rules, keep, max, cancelled, out);
        return out;
    }

    private static void walk(Path dir, String rel, int cut, List<Rule> inherited, Predicate<String> keep, int max,
            BooleanSupplier cancelled, List<String> out) throws IOException {
        List<Rule> rules = new ArrayList<>(inherited);
        rules.addAll(load(dir, rel));
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            entries.forEach(children::add);
        } catch (IOException e) {
            return; // unreadable directory: skipped, as rg does
        }
        for (Path child : children) {
            if (out.size() >= max || cancelled.getAsBoolean()) {
                return;
            }
            String name = child.getFileName().toString();
            if (name.startsWith(".")) {
                continue;
            }
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                continue;
            }
            String childRel = rel + name;
            if (a.isSymbolicLink()) {
                continue;
            }
            if (a.isDirectory()) {
                if (!ignored(rules, childRel, true)) {
                    walk(child, childRel + "/", cut, rules, keep, max, cancelled, out);
                }
            } else if (a.isRegularFile() && !ignored(rules, childRel, false)) {
                String mine = childRel.substring(cut);
                if (keep.test(mine)) {
                    out.add(mine);
                }
            }
        }
    }

    private static boolean ignored(List<Rule> rules, String rel, boolean dir) {
        boolean ignored = false;
        for (Rule r : rules) {
            if ((r.dirOnly && !dir) || !rel.startsWith(r.base)) {
                continue;
            }
            if (r.regex.matcher(rel.substring(r.base.length())).matches()) {
                ignored = !r.negate;
            }
        }
        return ignored;
    }

    private static List<Rule> load(Path dir, String rel) {
        List<Rule> rules = new ArrayList<>();
        for (String name : IGNORE_FILES) {
            Path f = dir.resolve(name);
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                continue;
            }
            for (String line : lines) {
                Rule r = parse(rel, line);
                if (r != null) {
                    rules.add(r);
                }
            }
        }
        return rules;
    }

    static Rule parse(String base, String raw) {
        String line = raw;
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        while (line.endsWith(" ") && !line.endsWith("\\ ")) {
            line = line.substring(0, line.length() - 1);
        }
        if (line.isEmpty() || line.startsWith("#")) {
            return null;
        }
        boolean negate = line.startsWith("!");
        if (negate) {
            line = line.substring(1);
        } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
            line = line.substring(1);
        }
        boolean dirOnly = line.endsWith("/");
        if (line.isEmpty() || line.equals("/")) {
            return null;
        }
        return new Rule(base, Globs.path(line), negate, dirOnly);
    }
}
