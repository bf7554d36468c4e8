package pi.host.spi;

import java.nio.file.Path;
import java.util.Objects;
import org.osgi.annotation.versioning.ConsumerType;
import pi.host.api.ToolProvider;

/**
 * A builtin whose presence depends on the session, not only on its mode: Skill exists only while the
 * session has skills, JevClassify only while Jev is enabled and a key is saved. The host asks before
 * it lists the tool ({@code tools.list}, ToolSearch, {@code prompt.begin}) and before every call, and
 * treats a tool that is not offered as absent: it is not listed, not found, and a direct call is
 * {@code UNKNOWN_TOOL}. The operating-mode matrix runs first, so a tool the mode denies is
 * {@code MODE_DENIED} whatever it answers here. Honoured for the host's own bundles only.
 */
@ConsumerType
public interface OfferedTool extends ToolProvider {

    /**
     * Whether {@code session} is offered the tool now. Called on the paths above, so it must be quick
     * (no network) and must not throw; an exception counts as not offered.
     */
    Offer offer(Session session);

    /**
     * The session a tool is offered to.
     *
     * @param projectRoot the session's project folder (canonical), or null for a temporary session
     */
    record Session(String sessionId, Path projectRoot) {
        public Session {
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /**
     * The answer.
     *
     * @param reason why the tool is not offered (the text of a direct call's {@code UNKNOWN_TOOL}); null when offered
     * @param catalogText what the model should read about this session's offer after the tool's own
     *     description (Skill lists the session's skills); empty for nothing
     */
    record Offer(boolean offered, String reason, String catalogText) {
        public Offer {
            catalogText = catalogText == null ? "" : catalogText;
            if (!offered) {
                Objects.requireNonNull(reason, "reason");
            }
        }

        /** Offered, with nothing to add to the description. */
        public static Offer yes() {
            return new Offer(true, null, "");
        }

        /** Offered, with {@code catalogText} after the description. */
        public static Offer yes(String catalogText) {
            return new Offer(true, null, catalogText);
        }

        /** Not offered, and why. */
        public static Offer no(String reason) {
            return new Offer(false, reason, "");
        }
    }
}
