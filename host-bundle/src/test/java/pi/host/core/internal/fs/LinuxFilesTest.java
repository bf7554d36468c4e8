package pi.host.core.internal.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.spi.AtomicWrite;
import pi.host.spi.FileInfo;
import pi.host.spi.PathChangedException;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;

/**
 * The race-free file edge (ARCHITECTURE.md "Native edges"): that the native path runs here, and
 * that both resolvers (openat2 and the openat walk) refuse every link on the way where the plain
 * Java open follows it.
 */
class LinuxFilesTest {

    @TempDir
    Path tmp;
    LinuxFiles files;

    @AfterEach
    void close() {
        if (files != null) {
            files.close();
        }
    }

    private LinuxFiles open(String resolver) throws IOException {
        files = LinuxFiles.open(tmp.resolve("journal"),
                resolver.equals(Openat2.NAME) ? new Openat2() : new OpenatWalk());
        return files;
    }

    /** A real directory {@code a/b} with {@code f.txt}, and {@code a/l} a link to {@code outside}. */
    private Path tree() throws IOException {
        Path a = Files.createDirectories(tmp.resolve("ws/a/b")).getParent().toRealPath();
        Files.writeString(a.resolve("b/f.txt"), "inside\n");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("f.txt"), "outside\n");
        Files.createSymbolicLink(a.resolve("l"), outside);
        return a;
    }

    @Test
    void theOpenat2EdgeIsTheOneThisKernelGetsAndItRefusesALinkThePlainJavaOpenFollows() throws Exception {
        PinnedFilesRef ref = new PinnedFilesRef(FilesComponent.load(tmp.resolve("j")));
        assertThat(ref.files.mechanism()).isEqualTo(Openat2.NAME); // Linux 6.x here (and in CI)
        Path a = tree();
        // the plain open refuses only a final link: the link in the middle is followed out
        try (SeekableByteChannel plain = Files.newByteChannel(a.resolve("l/f.txt"), LinkOption.NOFOLLOW_LINKS)) {
            assertThat(plain.size()).isEqualTo("outside\n".length());
        }
        try (PinnedDir dir = ref.files.pin(a)) {
            assertThatThrownBy(() -> dir.open("l/f.txt")).isInstanceOf(PathChangedException.class)
                    .hasMessageContaining("symbolic link");
        }
        ref.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {Openat2.NAME, OpenatWalk.NAME})
    void readsStatsAndWritesBelowThePinnedDirectory(String resolver) throws Exception {
        Path a = tree();
        try (PinnedDir dir = open(resolver).pin(a)) {
            assertThat(files.mechanism()).isEqualTo(resolver);
            try (PinnedFile f = dir.open("b/f.txt")) {
                assertThat(new String(f.readAll(100), StandardCharsets.UTF_8)).isEqualTo("inside\n");
                assertThat(f.info().regularFile()).isTrue();
            }
            assertThat(dir.stat("b").type()).isEqualTo(FileInfo.Type.DIRECTORY);
            assertThat(dir.stat("l").type()).isEqualTo(FileInfo.Type.LINK);
            assertThat(dir.stat("b/missing")).isNull();
            assertThat(dir.stat("missing/x")).isNull();
            assertThat(dir.relative(a.resolve("b/f.txt"))).isEqualTo("b/f.txt");
            assertThat(dir.relative(a)).isEmpty();
            // a name that starts with a dot takes relativize's way, which normalizes "." and ".." away
            assertThat(dir.relative(a.resolve(".hidden/x"))).isEqualTo(".hidden/x");
            assertThat(dir.relative(a.resolve("b/./f.txt"))).isEqualTo("b/f.txt");
            AtomicWrite.write(dir, "new/deep/g.txt", "g\n".getBytes(), "rwxr-x---");
            assertThat(Files.readString(a.resolve("new/deep/g.txt"))).isEqualTo("g\n");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(a.resolve("new/deep/g.txt"))))
                    .isEqualTo("rwxr-x---");
            dir.delete("new/deep/g.txt");
            assertThat(a.resolve("new/deep/g.txt")).doesNotExist();
            assertThatThrownBy(() -> dir.delete("b/missing")).isInstanceOf(NoSuchFileException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {Openat2.NAME, OpenatWalk.NAME})
    void aLinkAnywhereOnThePathIsRefusedForEveryOperationAndNothingOutsideChanges(String resolver) throws Exception {
        Path a = tree();
        Path outside = tmp.resolve("outside");
        try (PinnedDir dir = open(resolver).pin(a)) {
            assertThatThrownBy(() -> dir.open("l/f.txt")).isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> dir.open("l")).isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> dir.stat("l/f.txt")).isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> dir.dir("l", false)).isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> dir.dir("l/sub", true)).isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> AtomicWrite.write(dir, "l/f.txt", "x".getBytes(), null))
                    .isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> AtomicWrite.write(dir, "l/new.txt", "x".getBytes(), null))
                    .isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> dir.delete("l/f.txt")).isInstanceOf(PathChangedException.class);
            assertThatThrownBy(() -> files.pin(a.resolve("l"))).isInstanceOf(PathChangedException.class);
            // a final link is removed itself, never what it points to
            dir.delete("l");
        }
        assertThat(Files.readString(outside.resolve("f.txt"))).isEqualTo("outside\n");
        try (Stream<Path> s = Files.list(outside)) {
            assertThat(s).containsExactly(outside.resolve("f.txt"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {Openat2.NAME, OpenatWalk.NAME})
    void namesThatCouldStepOutAreRefusedBeforeAnyCall(String resolver) throws Exception {
        Path a = tree();
        try (PinnedDir dir = open(resolver).pin(a)) {
            for (String bad : new String[] {"..", "../outside/f.txt", "b/../../outside", "./b", "b//f.txt", "/etc"}) {
                assertThatThrownBy(() -> dir.open(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
            }
            assertThatThrownBy(() -> dir.write("b/f.txt", new byte[0], "rw-r--r--", true))
                    .isInstanceOf(IllegalArgumentException.class); // write takes one name
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {Openat2.NAME, OpenatWalk.NAME})
    void aDirectoryByItsPathWorksAsAPinnedOneAndClosingItKeepsTheEdgeOpen(String resolver) throws Exception {
        Path a = tree();
        open(resolver);
        for (int i = 0; i < 3; i++) {
            try (PinnedDir dir = files.at(a)) {
                assertThat(dir.stat("").type()).isEqualTo(FileInfo.Type.DIRECTORY);
                try (PinnedFile f = dir.open("b/f.txt")) {
                    assertThat(f.readAll(100)).isEqualTo("inside\n".getBytes());
                }
                AtomicWrite.write(dir, "top.txt", ("top " + i).getBytes(), null); // needs the folder itself
                AtomicWrite.write(dir, "made/x.txt", "x".getBytes(), null);
                dir.delete("made/x.txt");
                dir.delete("top.txt");
                assertThatThrownBy(() -> dir.open("l/f.txt")).isInstanceOf(PathChangedException.class);
                assertThatThrownBy(() -> AtomicWrite.write(dir, "l/x.txt", "x".getBytes(), null))
                        .isInstanceOf(PathChangedException.class);
            }
        }
        assertThat(a.resolve("top.txt")).doesNotExist();
        assertThat(a.resolve("made")).isDirectory();
        assertThatThrownBy(() -> files.at(a.resolve("l")).open("f.txt")).isInstanceOf(PathChangedException.class);
        try (PinnedDir slash = files.at(Path.of("/")); PinnedFile f = slash.open(slash.relative(a.resolve("b/f.txt")))) {
            assertThat(f.info().size()).isEqualTo("inside\n".length()); // an outside path: from / itself
        }
    }

    @Test
    void aFifoSwappedInIsRefusedWithoutBlocking() throws Exception {
        Path a = tree();
        Process mk = new ProcessBuilder("mkfifo", a.resolve("b/pipe").toString()).start();
        assertThat(mk.waitFor()).isZero();
        try (PinnedDir dir = open(Openat2.NAME).pin(a)) {
            assertThatThrownBy(() -> dir.open("b/pipe")).isInstanceOf(PathChangedException.class)
                    .hasMessageContaining("not a regular file");
            assertThat(dir.stat("b/pipe").type()).isEqualTo(FileInfo.Type.OTHER);
        }
    }

    @Test
    void anAtomicReplaceKeepsTheModeNeverWritesThroughAHardLinkAndLeavesNoOtherName() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("d")).toRealPath();
        Path f = Files.writeString(dir.resolve("f.txt"), "old\n");
        Path other = Files.createLink(dir.resolve("hard.txt"), f);
        try (PinnedDir d = open(Openat2.NAME).pin(dir)) {
            d.write("f.txt", "new\n".getBytes(), "rw-------", true);
            assertThatThrownBy(() -> d.write("f.txt", "x".getBytes(), "rw-------", false))
                    .isInstanceOf(FileAlreadyExistsException.class);
            d.write("created.txt", "c".getBytes(), "rw-r--r--", false);
        }
        assertThat(Files.readString(f)).isEqualTo("new\n");
        assertThat(Files.readString(other)).isEqualTo("old\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("f.txt", "hard.txt",
                    "created.txt");
        }
    }

    @Test
    void readAllReadsAFileOfSeveralMebibytesExactly() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("d")).toRealPath();
        byte[] content = new byte[3 * (1 << 20) + 12345];
        new Random(7).nextBytes(content);
        Files.write(dir.resolve("big.bin"), content);
        Files.write(dir.resolve("empty.txt"), new byte[0]);
        try (PinnedDir d = open(Openat2.NAME).pin(dir)) {
            try (PinnedFile f = d.open("big.bin")) {
                assertThat(f.readAll(content.length)).isEqualTo(content);
            }
            try (PinnedFile f = d.open("empty.txt")) {
                assertThat(f.readAll(0)).isEmpty();
            }
            try (PinnedFile f = d.open("big.bin")) {
                assertThatThrownBy(() -> f.readAll(1000)).hasMessageContaining("larger than 1000 bytes");
            }
        }
    }

    /** A PinnedFiles from {@link FilesComponent#load} with its close. */
    private record PinnedFilesRef(pi.host.spi.PinnedFiles files) {
        void close() {
            if (files instanceof LinuxFiles) {
                ((LinuxFiles) files).close();
            }
        }
    }
}
