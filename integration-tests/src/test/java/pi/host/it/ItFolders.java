package pi.host.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The throw-away folders the in-container tests give the host (project roots, outside paths). They
 * live in the system temp folder, not in the build's target folder: a project root inside this
 * repository's checkout would sit in a git work tree whose .gitignore hides it from rg. All of a test
 * JVM's folders share one parent, removed when that JVM exits, so runs leave nothing in /tmp.
 */
public final class ItFolders {

    private static Path parent;

    private ItFolders() {
    }

    /** A new empty folder whose name starts with {@code prefix}. */
    public static synchronized Path fresh(String prefix) {
        try {
            if (parent == null) {
                parent = Files.createTempDirectory("pi-host-it-");
                // the visitor is made now: at exit the framework has stopped and this class's bundle can
                // no longer load a class, so the hook may only use what is loaded already
                Thread cleanup = new Thread(new Remover(parent), "it-folders-cleanup");
                Runtime.getRuntime().addShutdownHook(cleanup);
            }
            return Files.createTempDirectory(parent, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes the tree; links are removed, never followed (a test may link to a path outside it). */
    private static final class Remover extends SimpleFileVisitor<Path> implements Runnable {
        private final Path root;

        Remover(Path root) {
            this.root = root;
        }

        @Override
        public void run() {
            try {
                Files.walkFileTree(root, this);
            } catch (IOException e) {
                System.err.println("could not remove the test folders in " + root + ": " + e);
            }
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException failed) throws IOException {
            Files.delete(dir);
            return FileVisitResult.CONTINUE;
        }
    }
}
