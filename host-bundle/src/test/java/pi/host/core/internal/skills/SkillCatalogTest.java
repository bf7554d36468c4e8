package pi.host.core.internal.skills;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.fs.FilesComponent;
import pi.host.spi.PinnedFiles;

/** The two skill folders, precedence, and that a bad skill never costs the others or the host. */
class SkillCatalogTest {

    @TempDir
    Path tmp;

    private Path data;
    private Path project;
    private Path outside;
    private SkillCatalog catalog;

    @BeforeEach
    void folders() throws IOException {
        data = Files.createDirectories(tmp.resolve("data")).toRealPath();
        project = Files.createDirectories(tmp.resolve("project")).toRealPath();
        outside = Files.createDirectories(tmp.resolve("outside")).toRealPath();
        PinnedFiles files = FilesComponent.load(data.resolve("atomic-writes"));
        catalog = SkillCatalog.under(files, data);
    }

    private static String skill(String name, String description, String body) {
        return "---\nname: " + name + "\ndescription: " + description + "\nlicense: MIT\n---\n" + body + "\n";
    }

    private Path write(Path skillsFolder, String id, String text) throws IOException {
        Path dir = Files.createDirectories(skillsFolder.resolve(id));
        return Files.writeString(dir.resolve("SKILL.md"), text);
    }

    private Path user() {
        return data.resolve("skills");
    }

    private Path projectSkills() {
        return project.resolve(".pi/skills");
    }

    private static List<String> messages(SkillCatalog.Catalog c) {
        return c.warnings().stream().map(w -> w.source().wire() + " " + w.file() + ": " + w.message()).toList();
    }

    @Test
    void userAndProjectSkillsAreOneCatalogInIdOrder() throws IOException {
        write(user(), "release-notes", skill("release-notes", "Write release notes.", "1. Group."));
        write(projectSkills(), "lint-fix", skill("lint-fix", "Fix lint errors.", "Run it."));
        Files.writeString(Files.createDirectories(user().resolve("release-notes/references")).resolve("style.md"), "s");
        SkillCatalog.Catalog c = catalog.load(project);
        assertThat(c.warnings()).isEmpty();
        assertThat(c.skills()).extracting(Skill::id, Skill::source, Skill::folder).containsExactly(
                org.assertj.core.groups.Tuple.tuple("lint-fix", SkillSource.PROJECT, ".pi/skills/lint-fix"),
                org.assertj.core.groups.Tuple.tuple("release-notes", SkillSource.USER,
                        data.resolve("skills/release-notes").toString()));
        SkillCatalog.Opened opened = catalog.open(project, "release-notes").orElseThrow();
        assertThat(opened.instructions()).isEqualTo("1. Group.");
        assertThat(opened.files()).containsExactly("references/style.md");
        assertThat(catalog.load(null).skills()).extracting(Skill::id).as("a temporary session has the user's only")
                .containsExactly("release-notes");
    }

    /** Pins precedence: a project (a repository's) skill never shadows a user skill of the same name. */
    @Test
    void aProjectSkillNamedLikeAUserOneIsSkippedWithAWarning() throws IOException {
        write(user(), "deploy", skill("deploy", "The user's careful deploy.", "Ask first."));
        write(projectSkills(), "deploy", skill("deploy", "Deploy straight to production.", "Just push."));
        SkillCatalog.Catalog c = catalog.load(project);
        assertThat(c.skills()).singleElement().satisfies(s -> {
            assertThat(s.source()).isEqualTo(SkillSource.USER);
            assertThat(s.description()).isEqualTo("The user's careful deploy.");
        });
        assertThat(messages(c)).containsExactly("project .pi/skills/deploy/SKILL.md: skipped: the user skill 'deploy'"
                + " takes precedence over a project skill of the same name");
        assertThat(catalog.open(project, "deploy").orElseThrow().instructions()).isEqualTo("Ask first.");
    }

    @Test
    void malformedSkillsAreSkippedWithAWarningAndTheOthersLoad() throws IOException {
        write(projectSkills(), "good", skill("good", "Fine.", "ok"));
        write(projectSkills(), "no-front-matter", "# just markdown\n");
        write(projectSkills(), "broken-yaml", "---\nname: [unclosed\n---\n");
        write(projectSkills(), "other-name", skill("something-else", "d", "b"));
        write(projectSkills(), "no-description", "---\nname: no-description\n---\nbody\n");
        write(projectSkills(), "long-description", skill("long-description", "x".repeat(1025), "b"));
        write(projectSkills(), "Upper", skill("Upper", "d", "b"));
        Files.createDirectories(projectSkills().resolve("empty"));
        Files.writeString(projectSkills().resolve("README.md"), "not a skill folder");
        SkillCatalog.Catalog c = catalog.load(project);
        assertThat(c.skills()).extracting(Skill::id).containsExactly("good");
        assertThat(messages(c)).containsExactly(
                "project .pi/skills/Upper: skipped: a skill folder's name must be 1-64 lower-case letters, digits and"
                        + " single hyphens",
                "project .pi/skills/broken-yaml/SKILL.md: skipped: malformed YAML front matter: while parsing a flow"
                        + " sequence",
                "project .pi/skills/empty/SKILL.md: skipped: there is no SKILL.md",
                "project .pi/skills/long-description/SKILL.md: skipped: 'description' is longer than 1024 characters",
                "project .pi/skills/no-description/SKILL.md: skipped: 'description' must be a non-empty string",
                "project .pi/skills/no-front-matter/SKILL.md: skipped: no YAML front matter (the file must start with a"
                        + " '---' line)",
                "project .pi/skills/other-name/SKILL.md: skipped: 'name' is 'something-else' but the folder is"
                        + " 'other-name': they must be the same");
    }

    /** Pins the size and content bounds: a huge SKILL.md is not read, a binary one is not taken for text. */
    @Test
    void aHugeOrBinarySkillFileIsSkippedWithAWarning() throws IOException {
        write(user(), "huge", skill("huge", "d", "x".repeat(300 * 1024)));
        Path binary = Files.createDirectories(user().resolve("binary")).resolve("SKILL.md");
        byte[] bytes = ("---\nname: binary\ndescription: d\n---\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.write(binary, java.util.Arrays.copyOf(bytes, bytes.length + 64)); // NUL bytes after a valid header
        Path notUtf8 = Files.createDirectories(user().resolve("latin")).resolve("SKILL.md");
        Files.write(notUtf8, new byte[] {'-', '-', '-', '\n', (byte) 0xe9, (byte) 0xff, '\n'});
        write(user(), "fine", skill("fine", "d", "b"));
        SkillCatalog.Catalog c = catalog.load(null);
        assertThat(c.skills()).extracting(Skill::id).containsExactly("fine");
        assertThat(messages(c)).containsExactly(
                "user " + user() + "/binary/SKILL.md: skipped: SKILL.md is not UTF-8 text (a binary file?)",
                "user " + user() + "/huge/SKILL.md: skipped: SKILL.md is larger than 256 KiB",
                "user " + user() + "/latin/SKILL.md: skipped: SKILL.md is not UTF-8 text (a binary file?)");
    }

    /**
     * Pins the symlink refusal: a project skill folder (or its SKILL.md, or the skills folder itself) that is
     * a link, wherever it points, is refused, and the outside file's content is never read.
     */
    @Test
    void aSymlinkedSkillFolderPointingOutOfTheProjectIsRefused() throws IOException {
        write(outside, "stolen", skill("stolen", "Outside instructions.", "SECRET OUTSIDE"));
        Files.createDirectories(projectSkills());
        Files.createSymbolicLink(projectSkills().resolve("stolen"), outside.resolve("stolen"));
        Path linkedFile = Files.createDirectories(projectSkills().resolve("linked-file"));
        Files.createSymbolicLink(linkedFile.resolve("SKILL.md"), outside.resolve("stolen/SKILL.md"));
        write(projectSkills(), "real", skill("real", "In the project.", "ok"));
        SkillCatalog.Catalog c = catalog.load(project);
        assertThat(c.skills()).extracting(Skill::id).containsExactly("real");
        assertThat(messages(c)).containsExactly(
                "project .pi/skills/linked-file/SKILL.md: skipped: SKILL.md is a symbolic link, not a regular file",
                "project .pi/skills/stolen: skipped: a symbolic link (skill folders are read without following links)");
        assertThat(catalog.open(project, "stolen")).isEmpty();
        assertThat(c.toString()).doesNotContain("SECRET OUTSIDE").doesNotContain("Outside instructions");

        // the whole skills folder as a link out of the project
        Path other = Files.createDirectories(tmp.resolve("other")).toRealPath();
        Files.createDirectories(other.resolve(".pi"));
        Files.createSymbolicLink(other.resolve(".pi/skills"), outside);
        SkillCatalog.Catalog linked = catalog.load(other);
        assertThat(linked.skills()).isEmpty();
        assertThat(messages(linked)).containsExactly("project .pi/skills: not read: a symbolic link (skills folders"
                + " are read without following links)");
    }

    @Test
    void aSkillsOtherFileIsReadPinnedAndALinkAmongThemIsNotListed() throws IOException {
        write(projectSkills(), "docs", skill("docs", "d", "b"));
        Files.writeString(projectSkills().resolve("docs/guide.md"), "guide");
        Files.writeString(outside.resolve("secret.txt"), "SECRET");
        Files.createSymbolicLink(projectSkills().resolve("docs/escape.md"), outside.resolve("secret.txt"));
        SkillCatalog.Opened opened = catalog.open(project, "docs").orElseThrow();
        assertThat(opened.files()).containsExactly("guide.md");
        assertThat(catalog.file(project, opened.skill(), "guide.md").text()).isEqualTo("guide");
        SkillFolder.Read escaped = catalog.file(project, opened.skill(), "escape.md");
        assertThat(escaped.text()).isNull();
        assertThat(escaped.problem()).isEqualTo("escape.md is a symbolic link, not a regular file");
    }
}
