package pi.host.mcpserver.internal.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The bearer token an HTTP client must send ({@code Authorization: Bearer <token>}): read from
 * {@code --token-file}, or 32 random bytes generated at start. Kept in this object only: never in a
 * framework or system property, never in a child's environment.
 */
public final class BearerToken {

    private final byte[] expected;
    private final boolean generated;

    private BearerToken(String token, boolean generated) {
        this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        this.generated = generated;
    }

    /** The token of {@code file}'s first line, or a generated one when {@code file} is null. */
    public static BearerToken of(String file) throws IOException {
        if (file == null) {
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            return new BearerToken(Base64.getUrlEncoder().withoutPadding().encodeToString(random), true);
        }
        String token = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
        if (token.isEmpty()) {
            throw new IOException("the token file " + file + " is empty");
        }
        return new BearerToken(token, false);
    }

    /** Whether an {@code Authorization} header carries this token (compared in constant time). */
    public boolean accepts(String authorization) {
        if (authorization == null) {
            return false;
        }
        return MessageDigest.isEqual(expected, authorization.strip().getBytes(StandardCharsets.UTF_8));
    }

    public boolean generated() {
        return generated;
    }

    /** The token itself, for printing a generated one to stderr once. */
    public String value() {
        return new String(expected, "Bearer ".length(), expected.length - "Bearer ".length(), StandardCharsets.UTF_8);
    }
}
