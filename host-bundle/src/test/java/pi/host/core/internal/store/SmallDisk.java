package pi.host.core.internal.store;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real, small file system for disk-full tests: a tmpfs of a few MiB mounted on a folder (needs
 * root, as the build runs here and in CI). A refused mount fails the test with the reason: a test
 * of a full disk that silently ran on a roomy one would prove nothing.
 */
public final class SmallDisk implements AutoCloseable {

    private final Path mountPoint;
    private final Path filler;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
        this.filler = mountPoint.resolve("filler");
    }

    /** Mounts a tmpfs of {@code mebibytes} MiB on {@code folder} (created if needed). */
    public static SmallDisk mount(Path folder, int mebibytes) throws IOException, InterruptedException {
        Files.createDirectories(folder);
        run("mount", "-t", "tmpfs", "-o", "size=" + mebibytes + "m", "tmpfs", folder.toString());
        return new SmallDisk(folder);
    }

    public Path root() {
        return mountPoint;
    }

    /** Fills the file system to the last byte. */
    public void fill() throws IOException {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left")) {
                throw e;
            }
        }
        // the last partial block: fill byte by byte
        try (OutputStream out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                out.write(0);
                out.flush();
            }
        } catch (IOException e) {
            // full
        }
    }

    /** Gives the space back. */
    public void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", "-l", mountPoint.toString());
    }

    /** Runs a command; a non-zero exit fails with its output (e.g. a refused mount). */
    public static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("this test needs `" + String.join(" ", List.of(command))
                    + "` (root, as in CI), and it failed: " + output.strip());
        }
    }
}
