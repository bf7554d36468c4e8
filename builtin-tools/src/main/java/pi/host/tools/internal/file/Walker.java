package pi.host.tools.internal.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.eclipse.jgit.ignore.IgnoreNode;

/**
 * The in-process walk used when {@code rg} is missing or fails, with ripgrep's default filters:
 * hidden entries (a name starting with {@code .}) are skipped; {@code .gitignore}, {@code .ignore}
 * and {@code .rgignore} files are honoured in the walked directories and in their ancestors up to
 * the workspace root; a git repository is not required, global and {@code .git/info/exclude}
 * ignores are not read (rg is run with the same switches). Symbolic links are never followed and
 * never listed, so a walk cannot leave its root.
 *
 * <p>Each ignore file is read by jgit's {@link IgnoreNode} (gitignore semantics: negation, {@code **},
 * escapes, trailing spaces, directory-only rules, last rule wins). Between files, rg's precedence:
 * a {@code .rgignore} rule decides before any {@code .ignore} rule, which decides before any
 * {@code .gitignore} rule, and within one kind the deepest directory's file decides. An ignored
 * directory is not entered, so nothing below it can be re-included (as in git and rg).
 *
 * <p>Directories are listed in parallel on the {@link FilePool}.
 */
final class Walker {

    /** Ignore file names in rg's precedence order. */
    private static final String[] IGNORE_FILES = {".rgignore", ".ignore", ".gitignore"};

    /** The ignore files of one directory ({@code rel}: its path from the walk's top, with a trailing '/'). */
    private record Rules(String rel, IgnoreNode[] nodes, Rules parent) {

        /** Whether {@code path} (from the walk's top) is ignored; null rules ignore nothing. */
        static boolean ignored(Rules rules, String path, boolean dir) {
            for (int kind = 0; kind < IGNORE_FILES.length; kind++) {
                for (Rules r = rules; r != null; r = r.parent) {
                    IgnoreNode node = r.nodes[kind];
                    if (node != null) {
                        Boolean verdict = node.checkIgnored(path.substring(r.rel.length()), dir);
                        if (verdict != null) {
                            return verdict;
                        }
                    }
                }
            }
            return false;
        }
    }

    private Walker() {
    }

    /** A file the walk found: its path relative to the walked root, and its size when it was seen. */
    record Found(String rel, long size) {
    }

    /**
     * Every regular, non-ignored file under {@code root} for which {@code keep} holds of its path
     * relative to {@code root} ({@code /}-separated), unordered; stops once {@code max} are found.
     * {@code top} is the directory whose ancestors' ignore files stop counting (the workspace root
     * when root is inside it, else root itself).
     */
    static List<String> files(Path top, Path root, Predicate<String> keep, int max, BooleanSupplier cancelled)
            throws IOException {
        return files(top, root, Set.of(), keep, max, cancelled);
    }

    /**
     * {@link #files}, never entering the directories {@code skipped} names (paths relative to
     * {@code root}, {@code /}-separated): the host's own state below the walked directory.
     */
    static List<String> files(Path top, Path root, Set<String> skipped, Predicate<String> keep, int max,
            BooleanSupplier cancelled) throws IOException {
        List<Found> found = walk(top, root, skipped, keep, max, cancelled);
        List<String> out = new ArrayList<>(found.size());
        found.forEach(f -> out.add(f.rel()));
        return out;
    }

    /** {@link #files}, with each file's size (which spares the search an {@code fstat}). */
    static List<Found> walk(Path top, Path root, Set<String> skipped, Predicate<String> keep, int max,
            BooleanSupplier cancelled) throws IOException {
        Rules rules = null;
        String rootRel = "";
        if (!top.equals(root) && root.startsWith(top)) {
            Path dir = top;
            for (Path name : top.relativize(root)) {
                rules = load(dir, rootRel, rules, null);
                rootRel = rootRel + name + "/";
                dir = dir.resolve(name);
            }
        }
        Walk walk = new Walk(rootRel.length(), skipped, keep, max, cancelled);
        return FilePool.get().invoke(walk.new Dir(root, rootRel, rules));
    }

    /** One walk's settings and shared count. */
    private static final class Walk {
        final int cut;
        final Set<String> skipped;
        final Predicate<String> keep;
        final int max;
        final BooleanSupplier cancelled;
        final AtomicInteger found = new AtomicInteger();

        Walk(int cut, Set<String> skipped, Predicate<String> keep, int max, BooleanSupplier cancelled) {
            this.cut = cut;
            this.skipped = skipped;
            this.keep = keep;
            this.max = max;
            this.cancelled = cancelled;
        }

        boolean done() {
            return found.get() >= max || cancelled.getAsBoolean();
        }

        /** One directory: its files, then its subdirectories' files, walked as forked tasks. */
        final class Dir extends RecursiveTask<List<Found>> {
            private final Path dir;
            private final String rel;
            private final Rules inherited;

            Dir(Path dir, String rel, Rules inherited) {
                this.dir = dir;
                this.rel = rel;
                this.inherited = inherited;
            }

            @Override
            protected List<Found> compute() {
                List<Found> out = new ArrayList<>();
                if (done()) {
                    return out;
                }
                List<Path> children = new ArrayList<>();
                List<BasicFileAttributes> attributes = new ArrayList<>();
                boolean[] present = new boolean[IGNORE_FILES.length];
                try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                    // on Linux a SecureDirectoryStream: entries are stat'ed relative to the open
                    // directory (fstatat), not by their whole path
                    SecureDirectoryStream<Path> secure = entries instanceof SecureDirectoryStream<Path> s ? s : null;
                    for (Path child : entries) {
                        Path name = child.getFileName();
                        String n = name.toString();
                        if (n.startsWith(".")) {
                            for (int k = 0; k < IGNORE_FILES.length; k++) {
                                present[k] |= n.equals(IGNORE_FILES[k]);
                            }
                            continue;
                        }
                        BasicFileAttributes a;
                        try {
                            a = secure != null
                                    ? secure.getFileAttributeView(name, BasicFileAttributeView.class,
                                            LinkOption.NOFOLLOW_LINKS).readAttributes()
                                    : Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                        } catch (IOException e) {
                            continue;
                        }
                        children.add(child);
                        attributes.add(a);
                    }
                } catch (IOException | RuntimeException e) {
                    return out; // unreadable directory: skipped, as rg does
                }
                Rules rules = load(dir, rel, inherited, present);
                List<Dir> subdirs = new ArrayList<>();
                for (int i = 0; i < children.size() && !done(); i++) {
                    Path child = children.get(i);
                    BasicFileAttributes a = attributes.get(i);
                    String childRel = rel + child.getFileName();
                    if (a.isDirectory()) {
                        if (!Rules.ignored(rules, childRel, true)
                                && (skipped.isEmpty() || !skipped.contains(childRel.substring(cut)))) {
                            Dir sub = new Dir(child, childRel + "/", rules);
                            sub.fork();
                            subdirs.add(sub);
                        }
                    } else if (a.isRegularFile() && !Rules.ignored(rules, childRel, false)) {
                        String mine = childRel.substring(cut);
                        if (keep.test(mine)) {
                            out.add(new Found(mine, a.size()));
                            found.incrementAndGet();
                        }
                    } // symbolic links and special files: never listed
                }
                for (Dir sub : subdirs) {
                    out.addAll(sub.join());
                }
                return out;
            }
        }
    }

    /**
     * {@code inherited} plus the ignore files of {@code dir}; {@code present} says which names the
     * directory listing showed (null: not listed, look each up).
     */
    private static Rules load(Path dir, String rel, Rules inherited, boolean[] present) {
        IgnoreNode[] nodes = null;
        for (int k = 0; k < IGNORE_FILES.length; k++) {
            if (present != null && !present[k]) {
                continue;
            }
            Path f = dir.resolve(IGNORE_FILES[k]);
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            IgnoreNode node = new IgnoreNode();
            try (InputStream in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
                node.parse(f.toString(), in);
            } catch (IOException | RuntimeException e) {
                continue; // unreadable: ignores nothing, as rg does
            }
            if (nodes == null) {
                nodes = new IgnoreNode[IGNORE_FILES.length];
            }
            nodes[k] = node;
        }
        return nodes == null ? inherited : new Rules(rel, nodes, inherited);
    }
}
