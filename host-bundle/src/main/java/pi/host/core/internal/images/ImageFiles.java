package pi.host.core.internal.images;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import pi.host.core.internal.json.ErrorText;
import pi.host.spi.FileInfo;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFiles;

/**
 * What {@code images.resolve} may hand back (docs/decisions.md "GenerateImages"): at most
 * {@link #MAX_IMAGES} paths, each an existing regular file below the session's own scratch dir, reached
 * without a link anywhere below it, at most {@link #MAX_BYTES} large. The scratch dir is the one place in
 * the data dir the session's own Read may open, so the model can look at what the client made, and a
 * client cannot make the host vouch for (or the model read) a file anywhere else.
 */
final class ImageFiles {

    static final int MAX_IMAGES = 16;
    static final long MAX_BYTES = 64L * 1024 * 1024;
    private static final int MAX_PATH = 4096;
    private static final Pattern MIME = Pattern.compile("image/[a-z0-9][a-z0-9.+-]{0,63}");

    /** A resolve the host refuses; the request keeps waiting. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(ErrorText.bound(message), null, false, false);
        }
    }

    private ImageFiles() {
    }

    /** Checks every entry of {@code images} against the scratch dir {@code scratch}. */
    static List<GeneratedImage> check(PinnedFiles files, Path scratch, JsonNode images) throws Invalid {
        if (images == null || !images.isArray() || images.isEmpty() || images.size() > MAX_IMAGES) {
            throw new Invalid("images must be an array of 1 to " + MAX_IMAGES + " {path, mimeType?} entries");
        }
        Path given = scratch.toAbsolutePath().normalize();
        Path real;
        try {
            real = given.toRealPath();
        } catch (IOException e) {
            throw new Invalid("the session's scratch dir " + given + " does not exist: write the images there");
        }
        List<GeneratedImage> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        try (PinnedDir dir = files.at(real)) {
            for (JsonNode entry : images) {
                GeneratedImage image = one(dir, given, real, entry);
                if (!seen.add(image.path())) {
                    throw new Invalid("images names " + ErrorText.quote(image.path()) + " twice");
                }
                out.add(image);
            }
        } catch (IOException e) {
            throw new Invalid("the scratch dir cannot be opened: " + e.getMessage());
        }
        return List.copyOf(out);
    }

    private static GeneratedImage one(PinnedDir dir, Path given, Path real, JsonNode entry) throws Invalid {
        JsonNode rawPath = entry == null ? null : entry.get("path");
        if (rawPath == null || !rawPath.isTextual() || rawPath.textValue().isEmpty()
                || rawPath.textValue().length() > MAX_PATH) {
            throw new Invalid("each image needs a path: an absolute path string of at most " + MAX_PATH + " characters");
        }
        String raw = rawPath.textValue();
        Path path;
        try {
            path = Path.of(raw);
        } catch (InvalidPathException e) {
            throw new Invalid("not a path: " + ErrorText.quote(raw));
        }
        // only plain spellings: no '..' or '.' that would make the prefix test below lie
        if (!path.isAbsolute() || !path.normalize().equals(path)) {
            throw new Invalid(ErrorText.quote(raw) + " is not an absolute, normalized path");
        }
        Path base = path.startsWith(real) ? real : path.startsWith(given) ? given : null;
        if (base == null || path.equals(base)) {
            throw new Invalid(ErrorText.quote(raw) + " is not a file below the session's scratch dir " + real);
        }
        String relative = base.relativize(path).toString();
        FileInfo info;
        try {
            info = dir.stat(relative);
        } catch (IOException | IllegalArgumentException e) {
            // a link anywhere on the way is refused by the pinned lookup, never followed
            throw new Invalid(ErrorText.quote(raw) + " cannot be checked without following a link: " + e.getMessage());
        }
        if (info == null || !info.regularFile()) {
            throw new Invalid(ErrorText.quote(raw) + (info == null ? " does not exist" : " is not a regular file"));
        }
        if (info.size() > MAX_BYTES) {
            throw new Invalid(ErrorText.quote(raw) + " is larger than " + MAX_BYTES / (1024 * 1024) + " MiB");
        }
        JsonNode mime = entry.get("mimeType");
        if (mime != null && !mime.isNull() && (!mime.isTextual() || !MIME.matcher(mime.textValue()).matches())) {
            throw new Invalid("mimeType must be an image type such as image/png");
        }
        return new GeneratedImage(real.resolve(relative).toString(), mime == null || mime.isNull() ? null
                : mime.textValue(), info.size());
    }
}
