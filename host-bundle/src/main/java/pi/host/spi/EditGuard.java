package pi.host.spi;

import java.nio.file.Path;
import org.osgi.annotation.versioning.ProviderType;
import pi.host.api.ToolCall;

/**
 * The Edit loop guard (EDIT-CONTRACT.md): failed Edits counted per path and per scope, the scope
 * being the parent turn, or the delegate run when a delegate makes the call. One scope's count
 * never touches another's.
 */
@ProviderType
public interface EditGuard {

    /** The counted failure that ends the loop with {@code EDIT_RETRY_LIMIT}. */
    int LIMIT = 3;

    /** The failures counted so far on this path in the call's scope. */
    int failures(ToolCall call, Path file);

    /**
     * Counts a failed Edit and returns the count after it. The first {@code EDIT_LINES_UNSEEN} on
     * a path whose reveal was complete is not counted (its unchanged retry then applies).
     */
    int fail(ToolCall call, Path file, boolean completeUnseenReveal);
}
