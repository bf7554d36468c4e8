package pi.host.core.internal.secrets;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.audit.Redactor;
import pi.host.core.internal.store.StoreComponent;
import pi.host.spi.FileInfo;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.PinnedFiles;

/**
 * The host's secrets (today the Jev API key), each in a file of its own under {@code <data_dir>/secrets/}
 * (mode 0700), outside the SQLite file: a file written whole and atomically with mode 0600 (an unnamed
 * {@code O_TMPFILE} given its mode before it gets a name, so no other user ever sees a half-written or
 * readable key), read and removed without following a link (a link planted there is refused). No OS
 * keyring is reachable where the host runs headless (no Secret Service on D-Bus here; see decisions.md).
 * Every value read or written is handed to the {@link Redactor}, so it is masked wherever it would
 * appear in an audit row.
 */
@Component(service = SecretFiles.class)
public final class SecretFiles {

    /** Under the data dir. */
    public static final String FOLDER = "secrets";
    /** What a secret file may hold (a longer file is refused). */
    static final int MAX_BYTES = 8192;
    /** Names are fixed by the host; nothing else ever names a file here. */
    private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9.]{0,63}");

    private final PinnedFiles files;
    private final Path dataDir;

    @Activate
    public SecretFiles(@Reference StoreComponent store, @Reference PinnedFiles files) {
        this(files, store.dataDir());
    }

    /** Secrets under {@code dataDir} (tests and embedding; DS uses the constructor above). */
    public static SecretFiles under(PinnedFiles files, Path dataDir) {
        return new SecretFiles(files, dataDir);
    }

    private SecretFiles(PinnedFiles files, Path dataDir) {
        this.files = files;
        this.dataDir = dataDir;
    }

    /** True when a secret of this name is saved (a regular file, not a link). */
    public boolean saved(String name) {
        try (PinnedDir dir = folder(false)) {
            FileInfo info = dir == null ? null : dir.stat(check(name));
            return info != null && info.regularFile();
        } catch (IOException e) {
            return false;
        }
    }

    /** The secret, or empty when none is saved. */
    public Optional<String> read(String name) throws IOException {
        try (PinnedDir dir = folder(false)) {
            if (dir == null) {
                return Optional.empty();
            }
            byte[] bytes;
            try (PinnedFile f = dir.open(check(name))) {
                bytes = f.readAll(MAX_BYTES);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            String value = decode(bytes, name);
            Redactor.maskLiteral(value);
            return Optional.of(value);
        }
    }

    /** Saves the secret (replacing one saved before), readable by the user only. */
    public void write(String name, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BYTES) {
            throw new IOException("secret " + name + " is longer than " + MAX_BYTES + " bytes");
        }
        Redactor.maskLiteral(value); // before it exists anywhere: nothing can audit it unmasked meanwhile
        try (PinnedDir dir = folder(true)) {
            dir.write(check(name), bytes, "rw-------", true);
        }
    }

    /** Removes the secret; nothing when none is saved. */
    public void delete(String name) throws IOException {
        try (PinnedDir dir = folder(false)) {
            if (dir != null) {
                dir.delete(check(name));
            }
        } catch (NoSuchFileException e) {
            // nothing saved
        }
    }

    /** The folder pinned, made (0700) when {@code create}; null when it is missing and not to be made. */
    private PinnedDir folder(boolean create) throws IOException {
        Path real = dataDir.toRealPath();
        Path folder = real.resolve(FOLDER);
        if (create) {
            try {
                Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException e) {
                // there already; pin() below refuses it unless it is a real folder
            }
        } else if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (PinnedDir data = files.at(real)) {
            return data.dir(FOLDER, false);
        }
    }

    private static String check(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a secret name: " + name);
        }
        return name;
    }

    private static String decode(byte[] bytes, String name) throws IOException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IOException("secret " + name + " is not UTF-8 text");
        }
    }
}
