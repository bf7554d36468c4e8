package pi.host.core.internal.skills;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import pi.host.core.internal.markdown.FrontMatter;
import pi.host.spi.FileInfo;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.PinnedFiles;

/**
 * One skills folder ({@code <data_dir>/skills} or {@code <project>/.pi/skills}) read without following
 * a link anywhere: the folder, each skill folder and each SKILL.md are opened below a root pinned by its
 * descriptor ({@link PinnedFiles}), so a skill folder that is a link (into another project, to
 * {@code ~/.ssh}) is refused with a warning, and a folder swapped for a link while it is read cannot
 * redirect a read. Only the names are listed by path; what is read is what the pinned lookup reaches.
 */
final class SkillFolder {

    /** Skill folders read per skills folder; the rest are skipped with a warning. */
    static final int MAX_SKILLS = 200;
    /** Other files a skill lists, and how deep it looks for them. */
    static final int MAX_LISTED = 200;
    private static final int MAX_DEPTH = 4;

    /** What one folder gave. */
    record Listing(List<Skill> skills, List<SkillWarning> warnings) {
        static final Listing EMPTY = new Listing(List.of(), List.of());
    }

    /** A skill's file as read now. */
    record Read(String text, String problem) {
    }

    private final PinnedFiles files;
    /** The canonical directory the folder is below (the data dir or the project root). */
    private final Path root;
    /** The folder, relative to {@link #root}. */
    private final String relative;
    private final SkillSource source;
    /** How the folder is shown: relative to the project, or absolute. */
    private final String shown;

    SkillFolder(PinnedFiles files, Path root, String relative, SkillSource source, boolean showRelative) {
        this.files = files;
        this.root = root;
        this.relative = relative;
        this.source = source;
        this.shown = showRelative ? relative : root.resolve(relative).toString();
    }

    /** The skills the folder holds, and a warning for each one skipped. */
    Listing list() {
        List<SkillWarning> warnings = new ArrayList<>();
        List<Skill> skills = new ArrayList<>();
        try (PinnedDir base = files.at(root)) {
            FileInfo info = base.stat(relative);
            if (info == null) {
                return Listing.EMPTY;
            }
            if (info.type() != FileInfo.Type.DIRECTORY) {
                return new Listing(List.of(), List.of(warn(shown, "not read: " + kind(info)
                        + " (skills folders are read without following links)")));
            }
            try (PinnedDir dir = base.dir(relative, false)) {
                List<String> names = names(warnings);
                for (String id : names) {
                    Skill skill = one(dir, id, warnings);
                    if (skill != null) {
                        skills.add(skill);
                    }
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            return new Listing(List.of(), List.of(warn(shown, "not read: " + e.getMessage())));
        }
        return new Listing(List.copyOf(skills), List.copyOf(warnings));
    }

    /** The skill folders' names, sorted, bounded; hidden names are left out. */
    private List<String> names(List<SkillWarning> warnings) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(root.resolve(relative))) {
            for (Path p : listing) {
                String name = p.getFileName().toString();
                if (!name.startsWith(".")) {
                    names.add(name);
                }
            }
        }
        names.sort(null);
        if (names.size() > MAX_SKILLS) {
            warnings.add(warn(shown, "only the first " + MAX_SKILLS + " of " + names.size() + " entries are read"));
            return names.subList(0, MAX_SKILLS);
        }
        return names;
    }

    private Skill one(PinnedDir dir, String id, List<SkillWarning> warnings) throws IOException {
        String folder = shown + "/" + id;
        FileInfo info = dir.stat(id);
        if (info == null || info.type() == FileInfo.Type.FILE) {
            return null; // gone meanwhile, or a plain file beside the skills (a README): not a skill
        }
        if (info.type() != FileInfo.Type.DIRECTORY) {
            warnings.add(warn(folder, "skipped: " + kind(info) + " (skill folders are read without following links)"));
            return null;
        }
        if (!SkillParser.validId(id)) {
            warnings.add(warn(folder, "skipped: a skill folder's name must be 1-" + SkillParser.MAX_ID
                    + " lower-case letters, digits and single hyphens"));
            return null;
        }
        Read read = read(dir, id, SkillParser.FILE);
        if (read.problem() != null) {
            warnings.add(warn(folder + "/" + SkillParser.FILE, "skipped: " + read.problem()));
            return null;
        }
        SkillParser.Parsed parsed = SkillParser.parse(id, read.text());
        if (parsed.skipped() != null) {
            warnings.add(warn(folder + "/" + SkillParser.FILE, "skipped: " + parsed.skipped()));
            return null;
        }
        return new Skill(id, parsed.description(), source, folder);
    }

    /** A text file of the skill {@code id} ({@code name} relative to its folder), read pinned now. */
    Read read(String id, String name) {
        try (PinnedDir base = files.at(root); PinnedDir dir = base.dir(relative, false)) {
            return read(dir, id, name);
        } catch (IOException | IllegalArgumentException e) {
            return new Read(null, "not readable without following a link: " + e.getMessage());
        }
    }

    private static Read read(PinnedDir dir, String id, String name) {
        try {
            FileInfo info = dir.stat(id + "/" + name);
            if (info == null) {
                return new Read(null, "there is no " + name);
            }
            if (!info.regularFile()) {
                return new Read(null, name + " is " + kind(info) + ", not a regular file");
            }
            if (info.size() > FrontMatter.MAX_FILE_BYTES) {
                return new Read(null, name + " is larger than " + FrontMatter.MAX_FILE_BYTES / 1024 + " KiB");
            }
            byte[] bytes;
            try (PinnedFile f = dir.open(id + "/" + name)) {
                bytes = f.readAll(FrontMatter.MAX_FILE_BYTES);
            }
            String text = FrontMatter.text(bytes);
            return text == null ? new Read(null, name + " is not UTF-8 text (a binary file?)") : new Read(text, null);
        } catch (IOException | IllegalArgumentException e) {
            return new Read(null, name + " is not readable without following a link: " + e.getMessage());
        }
    }

    /**
     * The other files of a skill, relative to its folder with {@code /}, sorted; links and what is
     * below them are not listed (names only: nothing is read).
     */
    List<String> otherFiles(String id) {
        Path folder = root.resolve(relative).resolve(id);
        List<String> out = new ArrayList<>();
        try {
            Files.walkFileTree(folder, EnumSet.noneOf(java.nio.file.FileVisitOption.class), MAX_DEPTH,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            String name = folder.relativize(file).toString().replace('\\', '/');
                            if (attrs.isRegularFile() && !name.equals(SkillParser.FILE)) {
                                out.add(name);
                            }
                            return out.size() >= MAX_LISTED ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) {
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (IOException e) {
            return List.of();
        }
        out.sort(null);
        return out;
    }

    private SkillWarning warn(String file, String message) {
        return new SkillWarning(source, file, message);
    }

    private static String kind(FileInfo info) {
        switch (info.type()) {
            case LINK:
                return "a symbolic link";
            case DIRECTORY:
                return "a folder";
            case FILE:
                return "a file";
            default:
                return "not a file or folder";
        }
    }
}
