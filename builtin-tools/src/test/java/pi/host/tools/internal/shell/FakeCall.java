package pi.host.tools.internal.shell;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import pi.host.spi.RecoveryScope;
import pi.host.testkit.FakeToolCall;

/**
 * The test kit's call as the host hands one to Bash: its own scratch folder, an hour to run (the tests set
 * their own timeouts), and a delegate's recovery scope when {@link #delegationId} is set, as the host's
 * calls carry theirs.
 */
final class FakeCall extends FakeToolCall implements RecoveryScope {

    /** The delegate run this call belongs to, or null for the parent's turn. */
    String delegationId;

    FakeCall(Map<String, Object> args, Path workspace, Path scratch) {
        this(args, workspace, scratch, "s1", "t1");
    }

    FakeCall(Map<String, Object> args, Path workspace, Path scratch, String sessionId, String turnId) {
        super(workspace, args, Duration.ofHours(1));
        toolName("Bash").ids(sessionId, turnId).scratchDir(scratch);
    }

    @Override
    public String recoveryScope() {
        return delegationId != null ? "delegate:" + delegationId : "turn:" + turnId();
    }
}
