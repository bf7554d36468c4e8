package pi.host.core.internal.delegation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.policy.PermissionMode;

/** The three locations, precedence, and that a bad file never costs the others. */
class DefinitionLoaderTest {

    @TempDir
    Path user;
    @TempDir
    Path projectDir;
    @TempDir
    Path elsewhere;

    private Path project;
    private Path projectAgents;

    @BeforeEach
    void folders() throws IOException {
        project = projectDir.toRealPath();
        projectAgents = Files.createDirectories(project.resolve(".pi/agents"));
    }

    private static String definition(String name, String extra) {
        return "---\nname: " + name + "\ndescription: the " + name + "\n" + extra + "---\nDo " + name + " things.\n";
    }

    private static DefinitionLoader withBuiltins(String... names) {
        List<SubagentDefinition> builtins = java.util.Arrays.stream(names)
                .map(n -> DefinitionParser.parse(definition(n, ""), SubagentSource.BUILTIN, "builtin:" + n + ".md")
                        .definition())
                .toList();
        return new DefinitionLoader(builtins, List.of());
    }

    @Test
    void theShippedBuiltinsLoadWithoutWarnings() {
        Definitions d = DefinitionLoader.withShippedBuiltins().load(user.resolve("none"), null);
        assertThat(d.warnings()).isEmpty();
        assertThat(d.all()).extracting(SubagentDefinition::name).containsExactly("explorer", "general");
        assertThat(d.all()).allSatisfy(s -> {
            assertThat(s.source()).isEqualTo(SubagentSource.BUILTIN);
            assertThat(s.warnings()).isEmpty();
            assertThat(s.permission()).as("builtins inherit the session's mode").isNull();
            assertThat(s.tools().inherit()).as("builtins do not opt in").isFalse();
            assertThat(s.instructions()).isNotBlank();
        });
        assertThat(d.find("explorer").orElseThrow().tools().resolve(List.of())).containsExactly("Glob", "Grep", "Read");
        assertThat(d.find("general").orElseThrow().tools().resolve(List.of())).hasSize(7);
    }

    @Test
    void readsTheUserAndTheProjectFolders() throws IOException {
        Files.writeString(user.resolve("writer.md"), definition("writer", "tools: [Write]\npermission: accept-edits\n"));
        Files.writeString(projectAgents.resolve("reviewer.md"), definition("reviewer",
                "tools: [Read, Grep]\npermission: auto\n"));
        Files.writeString(projectAgents.resolve("notes.txt"), "not a definition");
        Definitions d = withBuiltins("explorer").load(user, project);
        assertThat(d.all()).extracting(SubagentDefinition::name).containsExactly("explorer", "reviewer", "writer");
        SubagentDefinition writer = d.find("writer", SubagentSource.USER).orElseThrow();
        assertThat(writer.permission()).isEqualTo(PermissionMode.ACCEPT_EDITS);
        assertThat(writer.file()).isEqualTo(user.resolve("writer.md").toString());
        SubagentDefinition reviewer = d.find("reviewer", SubagentSource.PROJECT).orElseThrow();
        assertThat(reviewer.file()).isEqualTo(".pi/agents/reviewer.md");
        assertThat(reviewer.permission()).as("a project scope is dropped").isNull();
        assertThat(reviewer.warnings()).singleElement().asString().contains("may not declare a permission scope");
        assertThat(d.find("reviewer", SubagentSource.USER)).as("name and source must both match").isEmpty();
        assertThat(d.warnings()).isEmpty();
    }

    @Test
    void aTemporarySessionHasNoProjectDefinitions() throws IOException {
        Files.writeString(projectAgents.resolve("reviewer.md"), definition("reviewer", ""));
        assertThat(withBuiltins("explorer").load(user, null).all()).extracting(SubagentDefinition::name)
                .containsExactly("explorer");
    }

    @Test
    void aUserDefinitionReplacesABuiltinOfTheSameName() throws IOException {
        Files.writeString(user.resolve("explorer.md"), definition("Explorer", "tools: \"*\"\n"));
        Definitions d = withBuiltins("explorer").load(user, project);
        assertThat(d.all()).singleElement().satisfies(s -> {
            assertThat(s.source()).isEqualTo(SubagentSource.USER);
            assertThat(s.name()).isEqualTo("Explorer");
        });
        assertThat(d.warnings()).singleElement().satisfies(w -> {
            assertThat(w.source()).isEqualTo(SubagentSource.USER);
            assertThat(w.message()).contains("replaces the builtin definition 'explorer'");
        });
    }

    @Test
    void aProjectDefinitionNeverShadowsABuiltinOrUserOne() throws IOException {
        Files.writeString(user.resolve("writer.md"), definition("writer", "tools: [Read]\n"));
        Files.writeString(projectAgents.resolve("a.md"), definition("EXPLORER", "tools: \"*\"\n"));
        Files.writeString(projectAgents.resolve("b.md"), definition("writer", "tools: \"*\"\n"));
        Definitions d = withBuiltins("explorer").load(user, project);
        assertThat(d.all()).extracting(SubagentDefinition::source)
                .containsExactly(SubagentSource.BUILTIN, SubagentSource.USER);
        assertThat(d.warnings()).extracting(LoadWarning::file).containsExactly(".pi/agents/a.md", ".pi/agents/b.md");
        assertThat(d.warnings()).extracting(LoadWarning::message).containsExactly(
                "skipped: the builtin definition 'explorer' takes precedence over a project definition",
                "skipped: the user definition 'writer' takes precedence over a project definition");
    }

    @Test
    void withinAFolderTheFirstFileOfANameWins() throws IOException {
        Files.writeString(projectAgents.resolve("b.md"), definition("dup", "tools: [Bash]\n"));
        Files.writeString(projectAgents.resolve("a.md"), definition("dup", "tools: [Read]\n"));
        Definitions d = withBuiltins().load(user, project);
        assertThat(d.all()).singleElement().satisfies(s -> assertThat(s.file()).isEqualTo(".pi/agents/a.md"));
        assertThat(d.warnings()).singleElement().satisfies(w -> assertThat(w.message())
                .isEqualTo("skipped: the name 'dup' is already defined by .pi/agents/a.md"));
    }

    @Test
    void aBrokenFileIsSkippedWithAWarningAndTheOthersLoad() throws IOException {
        Files.writeString(projectAgents.resolve("bad.md"), "---\nname: [unclosed\n---\n");
        Files.write(projectAgents.resolve("binary.md"), new byte[] {'-', '-', '-', '\n', (byte) 0xC3, (byte) 0x28});
        Files.writeString(projectAgents.resolve("big.md"), definition("big", "") + "x".repeat(DefinitionLoader.MAX_FILE_BYTES));
        Files.writeString(projectAgents.resolve("good.md"), definition("good", ""));
        Files.writeString(user.resolve("nofront.md"), "# Just notes\n");
        Definitions d = withBuiltins().load(user, project);
        assertThat(d.all()).extracting(SubagentDefinition::name).containsExactly("good");
        assertThat(d.warnings()).extracting(w -> w.file() + ": " + w.message()).containsExactlyInAnyOrder(
                user.resolve("nofront.md") + ": skipped: no YAML front matter (the file must start with a '---' line)",
                ".pi/agents/bad.md: skipped: malformed YAML front matter: " + warningOf(d, "bad.md"),
                ".pi/agents/big.md: skipped: larger than 256 KiB",
                ".pi/agents/binary.md: skipped: not UTF-8 text");
    }

    private static String warningOf(Definitions d, String file) {
        return d.warnings().stream().filter(w -> w.file().endsWith(file)).findFirst().orElseThrow().message()
                .substring("skipped: malformed YAML front matter: ".length());
    }

    @Test
    void projectFilesThatLeaveTheProjectAreNotRead() throws IOException {
        Path outside = Files.writeString(elsewhere.resolve("evil.md"), definition("evil", "tools: \"*\"\n"));
        Files.createSymbolicLink(projectAgents.resolve("evil.md"), outside);
        Files.writeString(projectAgents.resolve("inside.md"), definition("inside", ""));
        Files.createSymbolicLink(projectAgents.resolve("alias.md"), projectAgents.resolve("inside.md"));
        Definitions d = withBuiltins().load(user, project);
        assertThat(d.all()).extracting(SubagentDefinition::name).containsExactly("inside");
        assertThat(d.warnings()).extracting(w -> w.file() + ": " + w.message()).containsExactlyInAnyOrder(
                ".pi/agents/evil.md: skipped: not read: the file resolves outside the project",
                // a link inside the project is read, and its name then collides with its target's
                ".pi/agents/inside.md: skipped: the name 'inside' is already defined by .pi/agents/alias.md");
    }

    @Test
    void aProjectAgentsFolderLinkedOutOfTheProjectIsNotRead() throws IOException {
        Files.delete(projectAgents);
        Files.writeString(elsewhere.resolve("evil.md"), definition("evil", ""));
        Files.createSymbolicLink(projectAgents, elsewhere);
        Definitions d = withBuiltins().load(user, project);
        assertThat(d.all()).isEmpty();
        assertThat(d.warnings()).singleElement().satisfies(w -> {
            assertThat(w.file()).isEqualTo(".pi/agents");
            assertThat(w.message()).isEqualTo("not read: the folder resolves outside the project");
        });
    }

    @Test
    void aChangedFileIsParsedAgainAtTheNextLoad() throws IOException {
        Path file = Files.writeString(projectAgents.resolve("r.md"), definition("r", "tools: [Read]\n"));
        DefinitionLoader loader = withBuiltins();
        assertThat(loader.load(user, project).find("r").orElseThrow().tools().names()).containsExactly("Read");
        assertThat(loader.load(user, project)).as("unchanged files come from the cache")
                .isEqualTo(loader.load(user, project));
        Files.writeString(file, definition("r", "tools: [Read, Bash]\n"));
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 2000));
        assertThat(loader.load(user, project).find("r").orElseThrow().tools().names()).containsExactly("Read", "Bash");
        Files.delete(file);
        assertThat(loader.load(user, project).all()).isEmpty();
    }
}
