package pi.host.core.internal.delegation;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import pi.host.core.internal.markdown.FrontMatter;

/**
 * Loads the definitions of the three locations and applies precedence (spec §10.2; docs/decisions.md):
 *
 * <ul>
 *   <li>builtin: shipped in this bundle ({@link #BUILTIN_FILES});</li>
 *   <li>user: {@code <data_dir>/agents/*.md} — replaces a builtin of the same name;</li>
 *   <li>project: {@code <projectRoot>/.pi/agents/*.md} — never shadows a builtin or user
 *       definition (it arrives with a repository); the colliding file is skipped with a warning.</li>
 * </ul>
 *
 * Names collide case-insensitively; within one folder the first file in name order wins. A folder
 * is listed on every load, and its files are parsed again only when one of them changed (name,
 * size or modification time), so a definition edited between two calls takes effect at the next.
 * A project file (or the folder) that resolves outside the project root is not read.
 */
public final class DefinitionLoader {

    /** The builtin definitions, resources beside this class under {@code builtin/}. */
    public static final List<String> BUILTIN_FILES = List.of("explorer.md", "general.md");
    /** A definition file larger than this is skipped. */
    static final int MAX_FILE_BYTES = FrontMatter.MAX_FILE_BYTES;
    /** Files read per folder; the rest are skipped with a warning. */
    static final int MAX_FILES = 200;
    /** Folders whose parsed files are kept; past it the cache starts over. */
    private static final int MAX_CACHED_FOLDERS = 256;

    private final List<SubagentDefinition> builtins;
    private final List<LoadWarning> builtinWarnings;
    private final Map<Path, Folder> cache = new ConcurrentHashMap<>();

    /** One folder's files as last parsed. */
    private record Folder(List<String> fingerprint, List<SubagentDefinition> definitions, List<LoadWarning> warnings) {
        Folder {
            // shared by every caller once cached
            fingerprint = List.copyOf(fingerprint);
            definitions = List.copyOf(definitions);
            warnings = List.copyOf(warnings);
        }
    }

    public DefinitionLoader(List<SubagentDefinition> builtins, List<LoadWarning> builtinWarnings) {
        this.builtins = List.copyOf(builtins);
        this.builtinWarnings = List.copyOf(builtinWarnings);
    }

    /** A loader with the definitions shipped in this bundle. */
    public static DefinitionLoader withShippedBuiltins() {
        List<DefinitionParser.Parsed> parsed = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (String file : BUILTIN_FILES) {
            try (InputStream in = DefinitionLoader.class.getResourceAsStream("builtin/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("builtin subagent definition " + file + " is not in the bundle");
                }
                parsed.add(DefinitionParser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                        SubagentSource.BUILTIN, "builtin:" + file));
                files.add("builtin:" + file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Folder folder = collect(SubagentSource.BUILTIN, files, parsed);
        return new DefinitionLoader(folder.definitions(), folder.warnings());
    }

    /**
     * The definitions of a session: the builtins, {@code userDir}'s and, when the session has a
     * project, {@code <projectRoot>/.pi/agents}'s.
     */
    public Definitions load(Path userDir, Path projectRoot) {
        List<LoadWarning> warnings = new ArrayList<>(builtinWarnings);
        Map<String, SubagentDefinition> chosen = new LinkedHashMap<>();
        for (SubagentDefinition d : builtins) {
            chosen.put(key(d.name()), d);
        }
        Folder user = folder(userDir, SubagentSource.USER, null);
        warnings.addAll(user.warnings());
        for (SubagentDefinition d : user.definitions()) {
            SubagentDefinition replaced = chosen.put(key(d.name()), d);
            if (replaced != null) {
                warnings.add(new LoadWarning(SubagentSource.USER, d.file(), "replaces the builtin definition '"
                        + replaced.name() + "'"));
            }
        }
        if (projectRoot != null) {
            Folder project = folder(projectRoot.resolve(".pi").resolve("agents"), SubagentSource.PROJECT, projectRoot);
            warnings.addAll(project.warnings());
            for (SubagentDefinition d : project.definitions()) {
                SubagentDefinition kept = chosen.putIfAbsent(key(d.name()), d);
                if (kept != null) {
                    warnings.add(new LoadWarning(SubagentSource.PROJECT, d.file(), "skipped: the " + kept.source().wire()
                            + " definition '" + kept.name() + "' takes precedence over a project definition"));
                }
            }
        }
        List<SubagentDefinition> all = new ArrayList<>(chosen.values());
        all.sort(Comparator.comparing(SubagentDefinition::name));
        return new Definitions(all, warnings);
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * One folder's definitions. {@code containRoot} non-null: the folder and each file must resolve
     * inside it (a project's files); null: links are followed wherever they go (the user's own).
     */
    private Folder folder(Path dir, SubagentSource source, Path containRoot) {
        String shown = display(dir, containRoot);
        Path realRoot;
        List<Path> files = new ArrayList<>();
        List<String> fingerprint = new ArrayList<>();
        List<LoadWarning> early = new ArrayList<>();
        try {
            if (!Files.isDirectory(dir)) {
                return new Folder(List.of(), List.of(), List.of());
            }
            realRoot = containRoot == null ? null : containRoot.toRealPath();
            if (realRoot != null && !dir.toRealPath().startsWith(realRoot)) {
                return new Folder(List.of(), List.of(), List.of(new LoadWarning(source, shown,
                        "not read: the folder resolves outside the project")));
            }
            try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir, "*.md")) {
                listing.forEach(files::add);
            }
            files.sort(Comparator.comparing(p -> p.getFileName().toString()));
            if (files.size() > MAX_FILES) {
                early.add(new LoadWarning(source, shown, "only the first " + MAX_FILES + " of " + files.size()
                        + " files are read"));
                files = new ArrayList<>(files.subList(0, MAX_FILES));
            }
            for (Path f : files) {
                fingerprint.add(fingerprint(f));
            }
        } catch (IOException | UncheckedIOException e) {
            return new Folder(List.of(), List.of(), List.of(new LoadWarning(source, shown,
                    "not read: " + e.getMessage())));
        }
        Folder cached = cache.get(dir);
        if (cached != null && cached.fingerprint().equals(fingerprint)) {
            return cached;
        }
        List<DefinitionParser.Parsed> parsed = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Path f : files) {
            String file = display(f, containRoot);
            names.add(file);
            parsed.add(read(f, source, file, realRoot));
        }
        Folder fresh = collect(source, names, parsed);
        List<LoadWarning> warnings = new ArrayList<>(early);
        warnings.addAll(fresh.warnings());
        Folder result = new Folder(fingerprint, fresh.definitions(), warnings);
        if (cache.size() >= MAX_CACHED_FOLDERS) {
            cache.clear();
        }
        cache.put(dir, result);
        return result;
    }

    private static String fingerprint(Path f) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
            return f.getFileName() + "|" + a.size() + "|" + a.lastModifiedTime().toMillis() + "|"
                    + a.lastModifiedTime().toInstant().getNano();
        } catch (NoSuchFileException e) {
            return f.getFileName() + "|gone"; // a dangling link: read() reports it
        }
    }

    private static DefinitionParser.Parsed read(Path f, SubagentSource source, String file, Path realRoot) {
        try {
            Path real = f.toRealPath();
            if (realRoot != null && !real.startsWith(realRoot)) {
                return DefinitionParser.Parsed.skip("not read: the file resolves outside the project");
            }
            if (!Files.isRegularFile(real)) {
                return DefinitionParser.Parsed.skip("not a regular file");
            }
            if (Files.size(real) > MAX_FILE_BYTES) {
                return DefinitionParser.Parsed.skip("larger than " + MAX_FILE_BYTES / 1024 + " KiB");
            }
            String text = FrontMatter.text(Files.readAllBytes(real));
            if (text == null) {
                return DefinitionParser.Parsed.skip("not UTF-8 text");
            }
            return DefinitionParser.parse(text, source, file);
        } catch (IOException e) {
            return DefinitionParser.Parsed.skip("not readable: " + e);
        }
    }

    /** Keeps the first definition of each name (case-insensitive) in file order; the rest become warnings. */
    private static Folder collect(SubagentSource source, List<String> files, List<DefinitionParser.Parsed> parsed) {
        Map<String, SubagentDefinition> byName = new HashMap<>();
        List<SubagentDefinition> definitions = new ArrayList<>();
        List<LoadWarning> warnings = new ArrayList<>();
        for (int i = 0; i < parsed.size(); i++) {
            DefinitionParser.Parsed p = parsed.get(i);
            if (p.definition() == null) {
                warnings.add(new LoadWarning(source, files.get(i), "skipped: " + p.skipped()));
                continue;
            }
            SubagentDefinition first = byName.putIfAbsent(key(p.definition().name()), p.definition());
            if (first != null) {
                warnings.add(new LoadWarning(source, files.get(i), "skipped: the name '" + p.definition().name()
                        + "' is already defined by " + first.file()));
                continue;
            }
            definitions.add(p.definition());
        }
        return new Folder(List.of(), definitions, warnings);
    }

    /** A project path relative to the project root ({@code .pi/agents/x.md}); any other path absolute. */
    private static String display(Path p, Path containRoot) {
        if (containRoot != null && p.startsWith(containRoot)) {
            return containRoot.relativize(p).toString().replace('\\', '/');
        }
        return p.toString();
    }
}
