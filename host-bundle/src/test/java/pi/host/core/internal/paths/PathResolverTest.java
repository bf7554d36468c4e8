package pi.host.core.internal.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.ResolvedPath.Root;

/**
 * The resolver against a real tree:
 *
 * <pre>
 * base/proj/            the workspace root
 *   src/a.txt  dir/  link-in -> src/a.txt  linkdir-in -> src  dangling-in -> src/new.txt
 *   round-trip -> ../proj/src
 *   out-file -> ../outside/secret.txt  out-dir -> ../outside  dangling-out -> ../outside/new.txt
 *   dangling-dir -> ../outside/newdir  chain1 -> chain2 -> ../outside/secret.txt
 *   loop1 -> loop2 -> loop1  self -> self  to-scratch -> ../data/scratch/s1
 * base/proj-evil/x.txt  base/outside/secret.txt  base/alias -> proj
 * base/data/scratch/s1/ the scratch dir: note.txt  to-proj -> ../../../proj/src/a.txt
 * </pre>
 */
class PathResolverTest {

    @TempDir
    Path tmp;

    private Path base;
    private Path proj;
    private Path outside;
    private Path scratch;
    private PathResolver resolver;

    @BeforeEach
    void tree() throws IOException {
        base = tmp.toRealPath();
        proj = Files.createDirectories(base.resolve("proj"));
        outside = Files.createDirectories(base.resolve("outside"));
        scratch = Files.createDirectories(base.resolve("data/scratch/s1"));
        Files.writeString(Files.createDirectories(proj.resolve("src")).resolve("a.txt"), "a");
        Files.createDirectories(proj.resolve("dir"));
        Files.writeString(outside.resolve("secret.txt"), "s");
        Files.writeString(Files.createDirectories(base.resolve("proj-evil")).resolve("x.txt"), "x");
        Files.writeString(scratch.resolve("note.txt"), "n");
        link(proj.resolve("link-in"), "src/a.txt");
        link(proj.resolve("linkdir-in"), "src");
        link(proj.resolve("dangling-in"), "src/new.txt");
        link(proj.resolve("round-trip"), "../proj/src");
        link(proj.resolve("out-file"), "../outside/secret.txt");
        link(proj.resolve("out-dir"), "../outside");
        link(proj.resolve("dangling-out"), "../outside/new.txt");
        link(proj.resolve("dangling-dir"), "../outside/newdir");
        link(proj.resolve("chain1"), "chain2");
        link(proj.resolve("chain2"), "../outside/secret.txt");
        link(proj.resolve("loop1"), "loop2");
        link(proj.resolve("loop2"), "loop1");
        link(proj.resolve("self"), "self");
        link(proj.resolve("to-scratch"), "../data/scratch/s1");
        link(scratch.resolve("to-proj"), "../../../proj/src/a.txt");
        link(base.resolve("alias"), "proj");
        resolver = new PathResolver(proj, scratch);
    }

    private static void link(Path at, String target) throws IOException {
        Files.createSymbolicLink(at, Path.of(target));
    }

    private Resolution resolve(String raw, PathKind kind) throws PathException {
        return resolver.resolve(raw, kind);
    }

    private PathException failure(String raw, PathKind kind) {
        return failure(resolver, raw, kind);
    }

    private static PathException failure(PathResolver r, String raw, PathKind kind) {
        try {
            Resolution res = r.resolve(raw, kind);
            return fail("expected a PathException for '%s' but got %s", raw, res);
        } catch (PathException e) {
            return e;
        }
    }

    // ---- inside the workspace -------------------------------------------------------------------

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(textBlock = """
            src/a.txt,                  src/a.txt
            ./src/a.txt,                src/a.txt
            src/./a.txt,                src/a.txt
            src/../src/a.txt,           src/a.txt
            dir/../src//a.txt,          src/a.txt
            ../proj/src/a.txt,          src/a.txt
            src/../../proj/src/a.txt,   src/a.txt
            link-in,                    src/a.txt
            linkdir-in/a.txt,           src/a.txt
            round-trip/a.txt,           src/a.txt
            """)
    void relativePathsInsideTheWorkspace(String raw, String display) throws PathException {
        Resolution r = resolve(raw, PathKind.EXISTING_FILE);
        assertThat(r.raw()).isEqualTo(raw);
        assertThat(r.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.path().display()).isEqualTo(display);
        assertThat(r.path().absolute()).isEqualTo(proj.resolve("src/a.txt"));
        assertThat(r.outside()).isFalse();
        assertThat(r.exists()).isTrue();
    }

    @Test
    void absolutePathInsideTheWorkspaceIsAWorkspacePath() throws PathException {
        Resolution r = resolve(proj.resolve("src/a.txt").toString(), PathKind.EXISTING_FILE);
        assertThat(r.path()).isEqualTo(new ResolvedPath(Root.WORKSPACE, proj.resolve("src/a.txt"), "src/a.txt"));
        assertThat(r.path().display()).isEqualTo("src/a.txt");
    }

    @ParameterizedTest
    @ValueSource(strings = {".", "./", "src/..", ""})
    void theRootItselfDisplaysAsDot(String suffix) throws PathException {
        String raw = suffix.isEmpty() ? proj.toString() : suffix;
        Resolution r = resolve(raw, PathKind.DIRECTORY);
        assertThat(r.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.path().display()).isEqualTo(".");
        assertThat(r.path().absolute()).isEqualTo(proj);
    }

    @Test
    void aDanglingLinkInsidePointingInsideStaysInside() throws PathException {
        Resolution r = resolve("dangling-in", PathKind.WRITABLE_FILE);
        assertThat(r.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.path().display()).isEqualTo("src/new.txt");
        assertThat(r.exists()).isFalse();
    }

    @Test
    void aWorkspaceRootGivenThroughALinkAcceptsBothSpellings() throws PathException {
        PathResolver viaAlias = new PathResolver(base.resolve("alias"), scratch);
        for (String raw : List.of("src/a.txt", base.resolve("alias/src/a.txt").toString(),
                proj.resolve("src/a.txt").toString())) {
            ResolvedPath p = viaAlias.resolve(raw, PathKind.EXISTING_FILE).path();
            assertThat(p.root()).as(raw).isEqualTo(Root.WORKSPACE);
            assertThat(p.absolute()).isEqualTo(proj.resolve("src/a.txt"));
            assertThat(p.display()).isEqualTo("src/a.txt");
        }
    }

    /** A link outside both roots that lands in the workspace touches only the workspace. */
    @Test
    void anOutsideSpellingThatLandsInsideIsAWorkspacePath() throws PathException {
        Resolution r = resolve(base.resolve("alias/src/a.txt").toString(), PathKind.EXISTING_FILE);
        assertThat(r.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.path().display()).isEqualTo("src/a.txt");
    }

    // ---- outside: .. escapes, absolute paths, sibling prefixes, symlink escapes -------------------

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            ../outside/secret.txt,           outside/secret.txt
            src/../../outside/secret.txt,    outside/secret.txt
            ../proj-evil/x.txt,              proj-evil/x.txt
            out-file,                        outside/secret.txt
            out-dir/secret.txt,              outside/secret.txt
            chain1,                          outside/secret.txt
            linkdir-in/../out-file,          outside/secret.txt
            """)
    void escapesAreExternal(String raw, String underBase) throws PathException {
        Resolution r = resolve(raw, PathKind.EXISTING_FILE);
        assertThat(r.outside()).isTrue();
        assertThat(r.path().root()).isEqualTo(Root.EXTERNAL);
        assertThat(r.path().absolute()).isEqualTo(base.resolve(underBase));
        assertThat(r.path().display()).isEqualTo(base.resolve(underBase).toString());
    }

    @Test
    void absolutePathsOutsideAreExternal() throws PathException {
        assertThat(resolve(outside.resolve("secret.txt").toString(), PathKind.EXISTING_FILE).path().root())
                .isEqualTo(Root.EXTERNAL);
        assertThat(resolve("/", PathKind.DIRECTORY).path().display()).isEqualTo("/");
        assertThat(resolve("../../../../../../../../../..", PathKind.DIRECTORY).path().absolute())
                .isEqualTo(Path.of("/"));
    }

    /** /proj-evil starts with the characters of /proj but is not under it. */
    @Test
    void aSiblingWithTheRootAsPrefixIsExternal() throws PathException {
        Resolution r = resolve(base.resolve("proj-evil/x.txt").toString(), PathKind.EXISTING_FILE);
        assertThat(r.path().root()).isEqualTo(Root.EXTERNAL);
        assertThat(r.outside()).isTrue();
    }

    @Test
    void aLinkToAnOutsideDirectoryIsExternal() throws PathException {
        Resolution r = resolve("out-dir", PathKind.DIRECTORY);
        assertThat(r.path().root()).isEqualTo(Root.EXTERNAL);
        assertThat(r.path().absolute()).isEqualTo(outside);
    }

    @Test
    void aDanglingLinkToOutsideIsExternalAndMissing() throws PathException {
        Resolution r = resolve("dangling-out", PathKind.WRITABLE_FILE);
        assertThat(r.path().root()).isEqualTo(Root.EXTERNAL);
        assertThat(r.path().absolute()).isEqualTo(outside.resolve("new.txt"));
        assertThat(r.exists()).isFalse();
    }

    /** A dangling link in the middle of the path still decides where a write would land. */
    @Test
    void aDanglingDirectoryLinkInTheMiddleIsExternal() throws PathException {
        Resolution r = resolve("dangling-dir/x.txt", PathKind.WRITABLE_FILE);
        assertThat(r.path().root()).isEqualTo(Root.EXTERNAL);
        assertThat(r.path().absolute()).isEqualTo(outside.resolve("newdir/x.txt"));
    }

    /** Pins the walk: a link target that steps back over a missing name is still followed name by name. */
    @Test
    void aLinkThroughAMissingNameAndBackStillFollowsTheLinkAfterIt() throws IOException, PathException {
        link(proj.resolve("via-missing"), "nope/../out-file");
        link(proj.resolve("via-absolute"), proj.resolve("nope/../out-dir/secret.txt").toString());
        assertThat(resolve("via-missing", PathKind.WRITABLE_FILE).path().absolute())
                .isEqualTo(outside.resolve("secret.txt"));
        assertThat(resolve("via-absolute", PathKind.WRITABLE_FILE).path().root()).isEqualTo(Root.EXTERNAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"loop1", "loop2/x", "self", "src/../self"})
    void linkLoopsAreInvalid(String raw) {
        PathException e = failure(raw, PathKind.WRITABLE_FILE);
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).contains("symbolic links");
    }

    // ---- scratch -------------------------------------------------------------------------------

    @Test
    void absolutePathsInScratchAreScratchPathsShownAbsolute() throws PathException {
        Resolution r = resolve(scratch.resolve("note.txt").toString(), PathKind.EXISTING_FILE);
        assertThat(r.path().root()).isEqualTo(Root.SCRATCH);
        assertThat(r.outside()).isFalse();
        assertThat(r.path().display()).isEqualTo(scratch.resolve("note.txt").toString());
        assertThat(resolve(scratch.toString(), PathKind.DIRECTORY).path().root()).isEqualTo(Root.SCRATCH);
    }

    @Test
    void aScratchDirThatDoesNotExistYetIsStillARootAndIsNotCreated() throws PathException {
        Path later = base.resolve("data/scratch/s2");
        PathResolver r = new PathResolver(proj, later);
        Resolution res = r.resolve(later.resolve("tmp/run.sh").toString(), PathKind.WRITABLE_FILE);
        assertThat(res.path().root()).isEqualTo(Root.SCRATCH);
        assertThat(res.exists()).isFalse();
        assertThat(later).doesNotExist();
    }

    /** Spec §4b: a symlink planted inside scratch cannot reach the workspace. */
    @Test
    void aLinkFromScratchIntoTheWorkspaceIsExternal() throws PathException {
        Resolution r = resolve(scratch.resolve("to-proj").toString(), PathKind.EXISTING_FILE);
        assertThat(r.path().root()).isEqualTo(Root.EXTERNAL);
        assertThat(r.path().absolute()).isEqualTo(proj.resolve("src/a.txt"));
    }

    @Test
    void aLinkFromTheWorkspaceIntoScratchIsExternal() throws PathException {
        assertThat(resolve("to-scratch/note.txt", PathKind.EXISTING_FILE).path().root()).isEqualTo(Root.EXTERNAL);
    }

    @Test
    void aRelativePathThatWalksIntoScratchIsAScratchPath() throws PathException {
        Resolution r = resolve("../data/scratch/s1/note.txt", PathKind.EXISTING_FILE);
        assertThat(r.path().root()).isEqualTo(Root.SCRATCH);
    }

    /** Spec §4b.1: the inner root is tried first, so a data dir inside a project stays scratch. */
    @Test
    void aScratchDirInsideTheWorkspaceWinsForItsOwnPaths() throws IOException, PathException {
        Path inner = Files.createDirectories(proj.resolve(".data/scratch/s9"));
        PathResolver r = new PathResolver(proj, inner);
        assertThat(r.resolve(inner.resolve("x.txt").toString(), PathKind.WRITABLE_FILE).path().root())
                .isEqualTo(Root.SCRATCH);
        assertThat(r.resolve(".data/scratch/s9/x.txt", PathKind.WRITABLE_FILE).path().root()).isEqualTo(Root.SCRATCH);
        assertThat(r.resolve("src/a.txt", PathKind.EXISTING_FILE).path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.resolve(".data", PathKind.DIRECTORY).path().root()).isEqualTo(Root.WORKSPACE);
    }

    /** A temporary session's scratch dir is its workspace root: relative paths, workspace display. */
    @Test
    void aTemporarySessionUsesScratchAsTheWorkspace() throws PathException {
        PathResolver r = new PathResolver(scratch, scratch);
        Resolution res = r.resolve("note.txt", PathKind.EXISTING_FILE);
        assertThat(res.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(res.path().display()).isEqualTo("note.txt");
        assertThat(r.resolve(scratch.resolve("note.txt").toString(), PathKind.EXISTING_FILE).path().root())
                .isEqualTo(Root.WORKSPACE);
        assertThat(r.resolve("../../../proj/src/a.txt", PathKind.EXISTING_FILE).outside()).isTrue();
    }

    // ---- malformed input ------------------------------------------------------------------------

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "\t", "\n  "})
    void blankIsInvalid(String raw) {
        assertThat(failure(raw, PathKind.WRITABLE_FILE).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\0b", "\0", "src/a.txt\0.png"})
    void nulIsInvalid(String raw) {
        PathException e = failure(raw, PathKind.WRITABLE_FILE);
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).contains("NUL");
    }

    @Test
    void componentLengthIsCountedInBytes() throws PathException {
        assertThat(resolve("a".repeat(255), PathKind.WRITABLE_FILE).exists()).isFalse();
        assertThat(failure("a".repeat(256), PathKind.WRITABLE_FILE).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(failure("src/" + "é".repeat(128), PathKind.WRITABLE_FILE).getMessage()).contains("255 bytes");
        assertThat(resolve("src/" + "é".repeat(127), PathKind.WRITABLE_FILE).path().root()).isEqualTo(Root.WORKSPACE);
    }

    /** Three- and four-byte characters at the limit, in the first, a middle and the last component. */
    @Test
    void componentBytesCountEveryEncodingWidth() throws PathException {
        String euro255 = "\u20ac".repeat(85);
        String emoji252 = "\ud83d\ude00".repeat(63);
        assertThat(resolve(euro255 + "/x", PathKind.WRITABLE_FILE).path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(resolve("src/" + emoji252 + "/x", PathKind.WRITABLE_FILE).path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(resolve("src/" + euro255, PathKind.WRITABLE_FILE).path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(failure(euro255 + "\u20ac/x", PathKind.WRITABLE_FILE).getMessage()).contains("255 bytes");
        assertThat(failure("src/" + emoji252 + "\ud83d\ude00/x", PathKind.WRITABLE_FILE).getMessage())
                .contains("255 bytes");
        assertThat(failure("src/" + euro255 + "a", PathKind.WRITABLE_FILE).getMessage()).contains("255 bytes");
        assertThat(failure("src/" + "a".repeat(256) + "/", PathKind.WRITABLE_FILE).getMessage()).contains("255 bytes");
    }

    @Test
    void wholePathLengthIsCountedInBytes() throws PathException {
        String component = "d".repeat(199) + "/";
        String exactly = component.repeat(20) + "x".repeat(96);
        assertThat(exactly.length()).isEqualTo(4096);
        assertThat(resolve(exactly, PathKind.WRITABLE_FILE).exists()).isFalse();
        PathException e = failure(exactly + "y", PathKind.WRITABLE_FILE);
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).contains("4096 bytes");
        assertThat(failure("é".repeat(2049), PathKind.WRITABLE_FILE).getMessage()).contains("4096 bytes");
    }

    // ---- literal names --------------------------------------------------------------------------

    /** On POSIX a backslash is part of a name and a drive letter is just characters. */
    @ParameterizedTest
    @ValueSource(strings = {"C:\\x", "a\\b", "C:\\Users\\me\\file.txt", "\\\\server\\share"})
    void windowsLookingStringsAreLiteralNames(String raw) throws IOException, PathException {
        Files.writeString(proj.resolve(raw), "w");
        Resolution r = resolve(raw, PathKind.EXISTING_FILE);
        assertThat(r.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.path().display()).isEqualTo(raw);
        assertThat(r.path().absolute()).isEqualTo(proj.resolve(raw));
        assertThat(r.path().absolute().getParent()).isEqualTo(proj);
    }

    @ParameterizedTest
    @ValueSource(strings = {"~/x", "~", "$HOME/x", "${HOME}/x", "$PWD", "%USERPROFILE%/x", "~root/x"})
    void tildeAndVariablesAreNotExpanded(String raw) throws PathException {
        Resolution r = resolve(raw, PathKind.WRITABLE_FILE);
        assertThat(r.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.path().display()).isEqualTo(raw);
        assertThat(r.path().absolute()).isEqualTo(proj.resolve(raw));
    }

    // ---- kind checks ----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} as {1}")
    @CsvSource(textBlock = """
            src/a.txt,   EXISTING_FILE
            src/a.txt,   FILE_OR_DIRECTORY
            src,         FILE_OR_DIRECTORY
            src,         DIRECTORY
            src/,        DIRECTORY
            .,           DIRECTORY
            src/a.txt,   WRITABLE_FILE
            src/new.txt, WRITABLE_FILE
            new/deep/f,  WRITABLE_FILE
            link-in,     WRITABLE_FILE
            linkdir-in,  DIRECTORY
            """)
    void kindsThatFit(String raw, PathKind kind) throws PathException {
        assertThat(resolve(raw, kind).path().root()).isEqualTo(Root.WORKSPACE);
    }

    @ParameterizedTest(name = "{0} as {1}")
    @CsvSource(textBlock = """
            missing.txt,     EXISTING_FILE,     no such file: missing.txt
            src/a.txt/,      EXISTING_FILE,     ends with '/'
            dangling-in,     EXISTING_FILE,     no such file: src/new.txt
            missing,         DIRECTORY,         no such directory: missing
            src/a.txt,       DIRECTORY,         src/a.txt is not a directory
            link-in,         DIRECTORY,         src/a.txt is not a directory
            missing,         FILE_OR_DIRECTORY, no such file or directory: missing
            src,             WRITABLE_FILE,     src is a directory
            linkdir-in,      WRITABLE_FILE,     src is a directory
            new.txt/,        WRITABLE_FILE,     may not end with '/'
            src/a.txt/child, WRITABLE_FILE,     a parent is not a directory
            """)
    void kindsThatDoNotFit(String raw, PathKind kind, String message) {
        PathException e = failure(raw, kind);
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).contains(message);
        assertThat(e.suggestion()).isEmpty();
    }

    /** Spec §4: Read of a directory is INVALID_ARGUMENT with a structured Glob suggestion. */
    @ParameterizedTest(name = "{0} -> Glob {1}")
    @CsvSource(textBlock = """
            src,        src
            src/,       src
            .,          .
            linkdir-in, src
            """)
    void aDirectoryGivenToReadSuggestsGlob(String raw, String display) {
        PathException e = failure(raw, PathKind.EXISTING_FILE);
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.suggestion()).isEqualTo(Map.of("tool", "Glob", "path", display));
    }

    @Test
    void anOutsideDirectoryGivenToReadSuggestsGlobOnItsAbsolutePathOnceApproved() throws Exception {
        Resolution r = resolve("out-dir", PathKind.EXISTING_FILE); // before approval: no look at the kind
        PathException e = catchThrowableOfType(() -> resolver.recheck(r, PathKind.EXISTING_FILE),
                PathException.class);
        assertThat(e.suggestion()).isEqualTo(Map.of("tool", "Glob", "path", outside.toString()));
    }

    @Test
    void kindNoneHasNothingToResolve() {
        assertThatThrownBy(() -> resolver.resolve("src/a.txt", PathKind.NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ---- recheck right before execution ---------------------------------------------------------

    @Test
    void recheckOfAnUnchangedPathReturnsTheSameLocation() throws PathException {
        Resolution r = resolve("src/a.txt", PathKind.EXISTING_FILE);
        assertThat(resolver.recheck(r, PathKind.EXISTING_FILE)).isEqualTo(r.path());
    }

    @Test
    void recheckRefusesAComponentSwappedForALinkToOutside() throws IOException, PathException {
        Path sub = Files.createDirectories(proj.resolve("sub"));
        Files.writeString(sub.resolve("f.txt"), "inside");
        Files.writeString(outside.resolve("f.txt"), "outside");
        Resolution r = resolve("sub/f.txt", PathKind.EXISTING_FILE);
        assertThat(r.outside()).isFalse();

        Files.delete(sub.resolve("f.txt"));
        Files.delete(sub);
        Files.createSymbolicLink(sub, outside);

        PathException e = recheckFailure(r, PathKind.EXISTING_FILE);
        assertThat(e.code()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(e.getMessage()).contains("changed after it was checked");
    }

    @Test
    void recheckRefusesAFinalFileSwappedForALinkToOutside() throws IOException, PathException {
        Resolution r = resolve("src/a.txt", PathKind.WRITABLE_FILE);
        Files.delete(proj.resolve("src/a.txt"));
        Files.createSymbolicLink(proj.resolve("src/a.txt"), outside.resolve("secret.txt"));
        assertThat(recheckFailure(r, PathKind.WRITABLE_FILE).code()).isEqualTo(ErrorCode.TOOL_DENIED);
    }

    @Test
    void recheckRefusesAMissingTargetThatBecameALinkElsewhereInside() throws IOException, PathException {
        Resolution r = resolve("src/new.txt", PathKind.WRITABLE_FILE);
        Files.createSymbolicLink(proj.resolve("src/new.txt"), proj.resolve("dir/other.txt"));
        assertThat(recheckFailure(r, PathKind.WRITABLE_FILE).code()).isEqualTo(ErrorCode.TOOL_DENIED);
    }

    @Test
    void recheckAcceptsAnApprovedExternalPathThatStillLandsThere() throws PathException {
        Resolution r = resolve("out-file", PathKind.EXISTING_FILE);
        assertThat(resolver.recheck(r, PathKind.EXISTING_FILE).root()).isEqualTo(Root.EXTERNAL);
    }

    @Test
    void recheckRefusesAnExternalPathWhoseLinkWasRetargeted() throws IOException, PathException {
        Resolution r = resolve("out-file", PathKind.EXISTING_FILE);
        Files.delete(proj.resolve("out-file"));
        Files.createSymbolicLink(proj.resolve("out-file"), base.resolve("proj-evil/x.txt"));
        assertThat(recheckFailure(r, PathKind.EXISTING_FILE).code()).isEqualTo(ErrorCode.TOOL_DENIED);
    }

    @Test
    void recheckOfAWritableFileCreatedMeanwhileAtTheSamePlaceIsFine() throws IOException, PathException {
        Resolution r = resolve("dangling-in", PathKind.WRITABLE_FILE);
        Files.writeString(proj.resolve("src/new.txt"), "now here");
        assertThat(resolver.recheck(r, PathKind.WRITABLE_FILE)).isEqualTo(r.path());
    }

    @Test
    void recheckStillChecksTheKind() throws IOException, PathException {
        Resolution r = resolve("src/a.txt", PathKind.EXISTING_FILE);
        Files.delete(proj.resolve("src/a.txt"));
        assertThat(recheckFailure(r, PathKind.EXISTING_FILE).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    private PathException recheckFailure(Resolution r, PathKind kind) {
        try {
            ResolvedPath p = resolver.recheck(r, kind);
            return fail("expected the recheck of '%s' to fail but got %s", r.raw(), p);
        } catch (PathException e) {
            return e;
        }
    }

    // ---- side effects and construction -------------------------------------------------------------

    @Test
    void resolutionCreatesNothing() throws IOException {
        Path laterScratch = base.resolve("data/scratch/s3");
        PathResolver r = new PathResolver(proj, laterScratch);
        List<String> before = listing();
        for (String raw : List.of("new/deep/f.txt", "dangling-out", "dangling-dir/x/y.txt", "dangling-in",
                laterScratch.resolve("a/b.txt").toString(), "../outside/newer/z", "~/x", "$HOME/y")) {
            for (PathKind kind : List.of(PathKind.WRITABLE_FILE, PathKind.EXISTING_FILE, PathKind.DIRECTORY,
                    PathKind.FILE_OR_DIRECTORY)) {
                try {
                    Resolution res = r.resolve(raw, kind);
                    r.recheck(res, kind);
                } catch (PathException expected) {
                    // only the absence of side effects matters here
                }
            }
        }
        assertThat(listing()).isEqualTo(before);
        assertThat(laterScratch).doesNotExist();
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> s = Files.walk(base)) {
            return s.map(p -> base.relativize(p) + (Files.isSymbolicLink(p) ? "@" : "")
                    + (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "/" : "")).sorted()
                    .collect(Collectors.toList());
        }
    }

    @Test
    void theWorkspaceRootMustBeAnExistingDirectory() {
        assertThatThrownBy(() -> new PathResolver(base.resolve("nope"), scratch))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PathResolver(proj.resolve("src/a.txt"), scratch))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void resolutionSaysOutsideExactlyForExternal() {
        ResolvedPath ws = new ResolvedPath(Root.WORKSPACE, proj, ".");
        assertThatThrownBy(() -> new Resolution(".", ws, true, true)).isInstanceOf(IllegalArgumentException.class);
        ResolvedPath ext = new ResolvedPath(Root.EXTERNAL, outside, outside.toString());
        assertThatThrownBy(() -> new Resolution("x", ext, false, true)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Pins: an outside path's kind was checked before approval, telling the model whether it exists. */
    @Test
    void anOutsidePathIsKindCheckedOnlyAfterApproval() throws Exception {
        String missing = outside.resolve("no-such-file.txt").toString();
        Resolution r = resolve(missing, PathKind.EXISTING_FILE);
        assertThat(r.outside()).isTrue();
        assertThatThrownBy(() -> resolver.recheck(r, PathKind.EXISTING_FILE))
                .isInstanceOfSatisfying(PathException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
}
