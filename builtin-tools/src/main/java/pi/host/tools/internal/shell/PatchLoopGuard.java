package pi.host.tools.internal.shell;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import pi.host.api.ToolCall;
import pi.host.spi.RecoveryScope;

/**
 * EDIT-CONTRACT.md's loop guard for shell patches: the third failed {@code apply_patch},
 * {@code git apply} or {@code patch} command in one turn answers EDIT_RETRY_LIMIT with terminate.
 * Counted per session and recovery scope: the delegate run when a delegate calls, else the turn
 * (the same scope as the Edit guard's, {@link RecoveryScope}).
 */
final class PatchLoopGuard {

    static final int LIMIT = 3;
    private static final Pattern PATCH = Pattern.compile("(^|[;&|(`\\s])(apply_patch|git\\s+apply|patch)(\\s|$|[;&|)])");
    private static final int SCOPES = 1024;

    private final Map<String, Integer> failures = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > SCOPES;
        }
    };

    static boolean isPatch(String command) {
        return PATCH.matcher(command).find();
    }

    /** Counts a failed patch command; returns the count in this scope. */
    synchronized int failed(ToolCall call) {
        return failures.merge(call.sessionId() + "\u0000" + RecoveryScope.of(call), 1, Integer::sum);
    }
}
