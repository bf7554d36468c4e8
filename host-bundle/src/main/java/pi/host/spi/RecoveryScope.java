package pi.host.spi;

import org.osgi.annotation.versioning.ProviderType;
import pi.host.api.ToolCall;

/**
 * The scope EDIT-CONTRACT.md's loop guards count failures in: the delegate run when a delegate makes
 * the call, else the parent turn. The host's {@link ToolCall}s implement it, so the Edit guard and
 * the shell-patch guard count in the same scope.
 */
@ProviderType
public interface RecoveryScope {

    /** {@code delegate:<delegationId>} or {@code turn:<turnId>}. */
    String recoveryScope();

    /** The scope of {@code call}: its own when it has one, else its turn. */
    static String of(ToolCall call) {
        return call instanceof RecoveryScope ? ((RecoveryScope) call).recoveryScope() : "turn:" + call.turnId();
    }
}
