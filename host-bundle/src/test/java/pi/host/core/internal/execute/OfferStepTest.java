package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.Builtin;
import pi.host.spi.OfferedTool;

/** A tool the session is not offered is absent: not listed, not found, a direct call UNKNOWN_TOOL before any card. */
class OfferStepTest extends StepTest {

    /** A builtin that says per session whether it is offered, as Skill and JevClassify do. */
    private static final class Switchable implements OfferedTool {
        final AtomicReference<Offer> offer = new AtomicReference<>(Offer.no("switched off"));
        final AtomicReference<Session> asked = new AtomicReference<>();

        @Override
        public Offer offer(Session session) {
            asked.set(session);
            Offer o = offer.get();
            if (o == null) {
                throw new IllegalStateException("broken");
            }
            return o;
        }

        @Override
        public String description() {
            return "a switchable tool";
        }

        @Override
        public String inputSchema() {
            return "{\"type\":\"object\"}";
        }

        @Override
        public ToolResult execute(ToolCall call) {
            return ToolResult.ok("ran");
        }
    }

    private final Switchable tool = new Switchable();
    private final ToolRegistry registry = Registered.registry();

    private RegisteredTool register(boolean deferred) {
        Registered.register(registry, "pi.host.core", tool, Tool.NAME, "Skill", Tool.RISK, "low",
                Tool.DEFERRED, deferred, Builtin.KIND, "SKILL");
        return registry.find("Skill").orElseThrow();
    }

    private CallState call(SessionRecord s, RegisteredTool t) throws Exception {
        CallState c = kit.call(s, t, "{}");
        c.first.tool = t;
        return c;
    }

    /** Pins the step: a direct call of a tool the session is not offered never reaches a card or the tool. */
    @Test
    void aToolTheSessionIsNotOfferedIsAnUnknownToolWithItsReason() throws Exception {
        RegisteredTool t = register(false);
        SessionRecord s = kit.session("agent", "auto");
        CallState c = call(s, t);
        ResultEnvelope refused = new OfferStep().apply(c, c.first);
        assertThat(refused.errorCode()).isEqualTo(ErrorCode.UNKNOWN_TOOL);
        assertThat(refused.toJson().toString()).contains("Skill is not offered in this session: switched off");
        assertThat(c.decision).isEqualTo("deny");
        assertThat(c.rule).isEqualTo("catalog.not-offered");
        assertThat(tool.asked.get()).isEqualTo(new OfferedTool.Session(s.id(), kit.project));

        tool.offer.set(OfferedTool.Offer.yes());
        assertThat(new OfferStep().apply(call(s, t), c.first)).isNull();
        tool.offer.set(null); // the tool's answer fails: it could not say it is offered
        assertThat(new OfferStep().apply(call(s, t), c.first).errorCode()).isEqualTo(ErrorCode.UNKNOWN_TOOL);
    }

    @Test
    void theCatalogListsOfferedToolsWithTheirCatalogTextAndNothingElse() throws Exception {
        register(false);
        SessionRecord s = kit.session("plan", "ask");
        Catalog catalog = new Catalog(registry);
        assertThat(catalog.list(OperatingMode.PLAN, Set.of(), s).tools()).isEmpty();
        assertThat(catalog.admitted(OperatingMode.PLAN, s)).isEmpty();
        assertThat(catalog.admitted(OperatingMode.PLAN)).as("the mode's view, for inherit").hasSize(1);

        tool.offer.set(OfferedTool.Offer.yes("Skills:\n- a: b"));
        Catalog.Listing listing = catalog.list(OperatingMode.PLAN, Set.of(), s);
        assertThat(listing.tools()).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("Skill");
            assertThat(e.description()).isEqualTo("a switchable tool\n\nSkills:\n- a: b");
        });
    }

    @Test
    void aDeferredToolNotOfferedIsNeitherOnDemandNorFoundBySearch() throws Exception {
        register(true);
        SessionRecord s = kit.session("agent", "ask");
        Catalog catalog = new Catalog(registry);
        assertThat(catalog.list(OperatingMode.AGENT, Set.of(), s).onDemand()).isEmpty();
        assertThat(catalog.deferred(OperatingMode.AGENT, s)).isEmpty();
        tool.offer.set(OfferedTool.Offer.yes());
        assertThat(catalog.list(OperatingMode.AGENT, Set.of(), s).onDemand())
                .extracting(Catalog.OnDemandEntry::name).containsExactly("Skill");
        assertThat(catalog.deferred(OperatingMode.AGENT, s)).extracting(RegisteredTool::name)
                .isEqualTo(List.of("Skill"));
    }

    @Test
    void toolsThatDoNotSayAreAlwaysOffered() throws Exception {
        RegisteredTool plain = StepKit.builtin("Read", pi.host.spi.ToolKind.READ, Risk.LOW, false);
        SessionRecord s = kit.session("agent", "ask");
        assertThat(Catalog.offer(plain, s).offered()).isTrue();
        CallState c = kit.call(s, plain, "{}");
        assertThat(new OfferStep().apply(c, c.first)).isNull();
    }
}
