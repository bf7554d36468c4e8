package pi.host.mcpserver.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestGuardTest {

    /** Pins: without --allow-remote only loopback peers pass (a request from another address is refused 403). */
    @Test
    void onlyLoopbackPeersPass() {
        assertThat(RequestGuard.loopback("127.0.0.1")).isTrue();
        assertThat(RequestGuard.loopback("127.5.6.7")).isTrue();
        assertThat(RequestGuard.loopback("0:0:0:0:0:0:0:1")).isTrue();
        assertThat(RequestGuard.loopback("::1")).isTrue();
        assertThat(RequestGuard.loopback("10.1.2.3")).isFalse();
        assertThat(RequestGuard.loopback("192.168.1.20")).isFalse();
        assertThat(RequestGuard.loopback("::ffff:10.0.0.1")).isFalse();
        assertThat(RequestGuard.loopback("")).isFalse();
        assertThat(RequestGuard.loopback(null)).isFalse();
    }

    /** Pins: only the exact bearer token passes; a generated token is 43 random characters. */
    @Test
    void onlyTheExactBearerTokenPasses(@TempDir Path dir) throws Exception {
        BearerToken generated = BearerToken.of(null);
        assertThat(generated.value()).hasSize(43);
        assertThat(generated.accepts("Bearer " + generated.value())).isTrue();
        assertThat(generated.accepts(generated.value())).isFalse();
        assertThat(generated.accepts("Bearer " + generated.value() + "x")).isFalse();
        assertThat(generated.accepts("bearer " + generated.value())).isFalse();
        assertThat(generated.accepts(null)).isFalse();
        assertThat(BearerToken.of(null).value()).isNotEqualTo(generated.value());
        Path file = dir.resolve("token");
        Files.writeString(file, "0123456789abcdef0123456789abcdef\nignored\n");
        BearerToken fromFile = BearerToken.of(file.toString());
        assertThat(fromFile.generated()).isFalse();
        assertThat(fromFile.accepts("Bearer 0123456789abcdef0123456789abcdef")).isTrue();
    }
}
