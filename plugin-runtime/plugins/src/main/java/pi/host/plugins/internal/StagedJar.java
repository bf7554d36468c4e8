package pi.host.plugins.internal;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import pi.host.plugins.check.Problem;
import pi.host.plugins.check.ResourceReader;

/**
 * A drop-in jar copied once into the runtime's own staging folder, so that what is checked is exactly
 * what is installed (the file in the drop-in folder may change meanwhile), read the way the framework
 * reads it (the zip's central directory, the manifest at {@code META-INF/MANIFEST.MF}) and within
 * bounds: a file over {@value #MAX_JAR_MIB} MiB, a manifest over {@value #MAX_MANIFEST_KIB} KiB or an
 * entry that inflates past {@link Bounded#MAX_ENTRY_BYTES} is refused, so no jar can make the host
 * allocate without limit. Closing it deletes the copy.
 */
final class StagedJar implements Closeable {

    static final int MAX_JAR_MIB = 64;
    static final int MAX_MANIFEST_KIB = 512;
    private static final String MANIFEST = "META-INF/MANIFEST.MF";

    private final Path copy;
    private final ZipFile zip;
    private final Manifest manifest;

    private StagedJar(Path copy, ZipFile zip, Manifest manifest) {
        this.copy = copy;
        this.zip = zip;
        this.manifest = manifest;
    }

    /** Why a drop-in cannot even be looked at as a bundle. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Problem problem;

        Unreadable(String where, String what, String fix) {
            super(what, null, false, false);
            this.problem = new Problem(where, what, fix);
        }

        Problem problem() {
            return problem;
        }
    }

    /** Copies {@code file} into {@code staging} and opens the copy; refuses what no framework should read. */
    static StagedJar stage(Path file, Path staging) throws Unreadable, IOException {
        long limit = MAX_JAR_MIB * 1024L * 1024L;
        Files.createDirectories(staging);
        Path copy = Files.createTempFile(staging, "drop-in-", ".jar");
        try {
            try (InputStream in = Files.newInputStream(file); OutputStream out = Files.newOutputStream(copy)) {
                Bounded.copy(in, out, limit, "the file");
            } catch (IOException e) {
                throw new Unreadable(file.getFileName().toString(), "the file cannot be read or is too large ("
                        + e.getMessage() + "; a plugin jar may have at most " + MAX_JAR_MIB + " MiB)",
                        "build the plugin again (mvn verify) and drop the jar in whole");
            }
            ZipFile zip;
            try {
                zip = new ZipFile(copy.toFile());
            } catch (IOException e) {
                throw new Unreadable(file.getFileName().toString(), "the file is not a readable jar: " + e.getMessage(),
                        "build the plugin as a jar (mvn verify) and drop the jar in whole");
            }
            try {
                StagedJar staged = new StagedJar(copy, zip, readManifest(zip));
                copy = null; // owned by the staged jar now
                return staged;
            } catch (Unreadable | RuntimeException e) {
                zip.close();
                throw e;
            }
        } finally {
            if (copy != null) {
                Files.deleteIfExists(copy);
            }
        }
    }

    private static Manifest readManifest(ZipFile zip) throws Unreadable {
        ZipEntry entry = zip.getEntry(MANIFEST);
        if (entry == null || entry.isDirectory()) {
            throw new Unreadable(MANIFEST, "the jar has no manifest, so it is not a bundle",
                    "build the plugin as an OSGi bundle (bnd-maven-plugin)");
        }
        try (InputStream in = zip.getInputStream(entry)) {
            return new Manifest(new ByteArrayInputStream(Bounded.read(in, MAX_MANIFEST_KIB * 1024, "the manifest")));
        } catch (IOException | RuntimeException e) {
            throw new Unreadable(MANIFEST, "the manifest cannot be read: " + e.getMessage()
                    + " (a manifest may have at most " + MAX_MANIFEST_KIB + " KiB)",
                    "let bnd write the manifest; keep headers to what the plugin needs");
        }
    }

    Manifest manifest() {
        return manifest;
    }

    /** The jar's entries by path, each read within {@link Bounded#MAX_ENTRY_BYTES}. */
    ResourceReader entries() {
        return path -> {
            ZipEntry e = zip.getEntry(path);
            if (e == null || e.isDirectory()) {
                return null;
            }
            try (InputStream in = zip.getInputStream(e)) {
                return Bounded.read(in, Bounded.MAX_ENTRY_BYTES, "the entry " + path);
            }
        };
    }

    /** The staged bytes, to install from. */
    InputStream open() throws IOException {
        return Files.newInputStream(copy);
    }

    @Override
    public void close() throws IOException {
        try {
            zip.close();
        } finally {
            Files.deleteIfExists(copy);
        }
    }
}
