package pi.host.core.internal.images;

/**
 * One image the client made, as the host checked it.
 *
 * @param path the canonical absolute path below the session's scratch dir
 * @param mimeType the type the client named ({@code image/png}, ...), or null
 * @param bytes the file's size when it was checked
 */
public record GeneratedImage(String path, String mimeType, long bytes) {
}
