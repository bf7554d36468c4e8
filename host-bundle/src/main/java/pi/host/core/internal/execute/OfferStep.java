package pi.host.core.internal.execute;

import pi.host.api.ErrorCode;
import pi.host.core.internal.catalog.Catalog;
import pi.host.spi.OfferedTool;

/**
 * A tool whose presence depends on the session ({@link OfferedTool}: Skill without skills, JevClassify
 * while Jev is off or no key is saved) is not in the session's catalog: a direct call is
 * {@code UNKNOWN_TOOL} before any card, as for a name nothing registered. After the mode matrix, so the
 * contract modes' hard deny keeps its own code.
 */
final class OfferStep implements Step {

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        OfferedTool.Offer offer = Catalog.offer(e.tool, e.session);
        if (!offer.offered()) {
            return call.deny(ErrorCode.UNKNOWN_TOOL, "catalog.not-offered", "offer",
                    call.request.name() + " is not offered in this session: " + offer.reason());
        }
        return null;
    }
}
