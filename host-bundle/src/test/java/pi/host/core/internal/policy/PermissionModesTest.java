package pi.host.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec §6 resolution order: session value unless inherit, then the global default, then ask. */
class PermissionModesTest {

    @ParameterizedTest(name = "session={0} global={1} -> {2}")
    @CsvSource(nullValues = "NULL", textBlock = """
            # an explicit session value wins over any global default
            ask,          auto,          ASK
            accept-edits, ask,           ACCEPT_EDITS
            auto,         ask,           AUTO
            ask,          NULL,          ASK
            auto,         NULL,          AUTO
            accept-edits, NULL,          ACCEPT_EDITS
            # ... and the global default is not consulted, so its garbage does not matter
            auto,         garbage,       AUTO
            # inherit defers to the global default
            inherit,      ask,           ASK
            inherit,      accept-edits,  ACCEPT_EDITS
            inherit,      auto,          AUTO
            # no session value at all is the column default, inherit
            NULL,         auto,          AUTO
            NULL,         accept-edits,  ACCEPT_EDITS
            # no global default either: ask
            inherit,      NULL,          ASK
            NULL,         NULL,          ASK
            # an unknown session value fails closed, whatever the global default
            Auto,         auto,          EMPTY
            yolo,         NULL,          EMPTY
            '',           auto,          EMPTY
            INHERIT,      auto,          EMPTY
            # an unknown global default fails closed when the session inherits
            inherit,      yolo,          EMPTY
            inherit,      inherit,       EMPTY
            inherit,      '',            EMPTY
            NULL,         ASK,           EMPTY
            """)
    void resolutionOrder(String session, String global, String expected) {
        if (expected.equals("EMPTY")) {
            assertThat(PermissionModes.effective(session, global)).isEmpty();
        } else {
            assertThat(PermissionModes.effective(session, global)).contains(PermissionMode.valueOf(expected));
        }
    }
}
