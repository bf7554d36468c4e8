package pi.host.core.internal.skills;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.store.StoreComponent;
import pi.host.spi.PinnedFiles;

/**
 * A session's skill catalog (spec §2.1, D404): the user's skills ({@code <data_dir>/skills/<id>/SKILL.md})
 * and the project's ({@code <project>/.pi/skills/<id>/SKILL.md}), read again on every use so an added or
 * edited skill counts at once. A project skill never shadows a user one: a project skill whose id equals
 * a user skill's is skipped with a warning. Both folders are host-read (the data dir's is host state that
 * no file tool may reach; this is the one reader) and neither is read through a link.
 */
@Component(service = SkillCatalog.class)
public final class SkillCatalog {

    /** Under the data dir. */
    public static final String USER_FOLDER = "skills";
    /** Under the project root. */
    public static final String PROJECT_FOLDER = ".pi/skills";

    /** A session's catalog: the skills in id order, and the warnings of both folders. */
    public record Catalog(List<Skill> skills, List<SkillWarning> warnings) {
        public boolean isEmpty() {
            return skills.isEmpty();
        }

        public Optional<Skill> find(String id) {
            return skills.stream().filter(s -> s.id().equals(id)).findFirst();
        }
    }

    /** A skill opened for the Skill tool: its instructions as the file says now, and its other files. */
    public record Opened(Skill skill, String instructions, List<String> files) {
    }

    private final PinnedFiles files;
    private final Path dataDir;

    @Activate
    public SkillCatalog(@Reference StoreComponent store, @Reference PinnedFiles files) {
        this(files, store.dataDir());
    }

    /** The catalog with the user's skills under {@code dataDir} (tests and embedding; DS uses the constructor above). */
    public static SkillCatalog under(PinnedFiles files, Path dataDir) {
        return new SkillCatalog(files, dataDir);
    }

    private SkillCatalog(PinnedFiles files, Path dataDir) {
        this.files = files;
        this.dataDir = dataDir;
    }

    /** The catalog of a session whose project is {@code projectRoot} (canonical; null for a temporary session). */
    public Catalog load(Path projectRoot) {
        List<SkillWarning> warnings = new ArrayList<>();
        Map<String, Skill> byId = new HashMap<>();
        List<Skill> all = new ArrayList<>();
        SkillFolder.Listing user = user().map(SkillFolder::list).orElse(SkillFolder.Listing.EMPTY);
        warnings.addAll(user.warnings());
        for (Skill s : user.skills()) {
            byId.put(key(s.id()), s);
            all.add(s);
        }
        if (projectRoot != null) {
            SkillFolder.Listing project = project(projectRoot).list();
            warnings.addAll(project.warnings());
            for (Skill s : project.skills()) {
                Skill kept = byId.putIfAbsent(key(s.id()), s);
                if (kept != null) {
                    warnings.add(new SkillWarning(SkillSource.PROJECT, s.file(), "skipped: the user skill '"
                            + kept.id() + "' takes precedence over a project skill of the same name"));
                } else {
                    all.add(s);
                }
            }
        }
        all.sort(java.util.Comparator.comparing(Skill::id));
        return new Catalog(List.copyOf(all), List.copyOf(warnings));
    }

    /**
     * The skill {@code id} of the session's catalog, read now: empty when the catalog has no such skill;
     * a problem when its file cannot be read any more.
     */
    public Optional<Opened> open(Path projectRoot, String id) throws IOException {
        Skill skill = load(projectRoot).find(id).orElse(null);
        if (skill == null) {
            return Optional.empty();
        }
        SkillFolder folder = folder(skill.source(), projectRoot);
        SkillFolder.Read read = folder.read(id, SkillParser.FILE);
        if (read.problem() != null) {
            throw new IOException(read.problem());
        }
        SkillParser.Parsed parsed = SkillParser.parse(id, read.text());
        if (parsed.skipped() != null) {
            throw new IOException(parsed.skipped());
        }
        return Optional.of(new Opened(skill, parsed.instructions(), folder.otherFiles(id)));
    }

    /** One other file of the skill {@code id}, read now (text only, bounded, no link followed). */
    public SkillFolder.Read file(Path projectRoot, Skill skill, String name) {
        return folder(skill.source(), projectRoot).read(skill.id(), name);
    }

    /** Where the folders are, as {@code skills.list} shows them. */
    public Map<String, String> locations(Path projectRoot) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        out.put("user", dataDir.resolve(USER_FOLDER).toString());
        out.put("project", projectRoot == null ? null : projectRoot.resolve(PROJECT_FOLDER).toString());
        return out;
    }

    private SkillFolder folder(SkillSource source, Path projectRoot) {
        return source == SkillSource.USER ? user().orElseThrow() : project(projectRoot);
    }

    private Optional<SkillFolder> user() {
        try {
            return Optional.of(new SkillFolder(files, dataDir.toRealPath(), USER_FOLDER, SkillSource.USER, false));
        } catch (IOException e) {
            return Optional.empty(); // no data dir yet: no user skills
        }
    }

    private SkillFolder project(Path projectRoot) {
        return new SkillFolder(files, projectRoot, PROJECT_FOLDER, SkillSource.PROJECT, true);
    }

    private static String key(String id) {
        return id.toLowerCase(Locale.ROOT);
    }
}
