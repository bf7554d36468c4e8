package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Read's digest is the thread's own, looked up once (branch first200), and reset for each use. */
class TagsTest {

    private static final String SHA256_OF_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void aThreadGetsItsOwnDigestOnceAndEachUseStartsClean() throws Exception {
        MessageDigest first = Tags.sha256();
        first.update("left over by a Read that stopped halfway".getBytes(StandardCharsets.UTF_8));
        MessageDigest again = Tags.sha256();
        assertThat(again).isSameAs(first); // no provider lookup per Read
        again.update("abc".getBytes(StandardCharsets.US_ASCII));
        assertThat(HexFormat.of().formatHex(again.digest())).isEqualTo(SHA256_OF_ABC);
        assertThat(HexFormat.of().formatHex(Tags.digest("abc".getBytes(StandardCharsets.US_ASCII)))).isEqualTo(SHA256_OF_ABC);
        MessageDigest other = CompletableFuture.supplyAsync(Tags::sha256).get(10, TimeUnit.SECONDS);
        assertThat(other).isNotSameAs(first); // never shared between threads
    }
}
