package dev.crowdtree.demo.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.regex.Pattern;

/**
 * The shared secret of {@code serve --token}: every request must carry it, as
 * {@code Authorization: Bearer <token>} or as the query parameter {@code token} (how the browser
 * opens the page). Candidates are compared in constant time: both sides are hashed with SHA-256 and
 * the digests compared with {@link MessageDigest#isEqual}, so neither the position of the first
 * wrong character nor the token's length shows in the time taken.
 *
 * <p>A token is 16 to 256 characters from {@code A-Z a-z 0-9 . _ ~ -} (URL-safe: it goes into
 * the page's links unescaped), e.g. {@code openssl rand -hex 16}.
 *
 * <p>THREADING: immutable.
 */
public final class AccessToken {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._~-]{16,256}");

    private final String token;
    private final byte[] digest;

    private AccessToken(String token) {
        this.token = token;
        this.digest = sha256(token);
    }

    /**
     * The token for {@code value}.
     *
     * @throws IllegalArgumentException with a one-line message when it is not a valid token
     */
    public static AccessToken of(String value) {
        if (value == null || !VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("--token must be 16 to 256 characters from A-Z a-z 0-9 . _ ~ - "
                    + "(e.g. the output of: openssl rand -hex 16)");
        }
        return new AccessToken(value);
    }

    /** The token itself (to write into the page's links). */
    public String value() {
        return token;
    }

    /** Whether {@code candidate} is the token, in time independent of where they differ. */
    public boolean matches(String candidate) {
        return candidate != null && MessageDigest.isEqual(sha256(candidate), digest);
    }

    /**
     * Whether a request carries the token: in an {@code Authorization: Bearer} header, or as the
     * {@code token} query parameter.
     */
    public boolean allows(String authorization, String queryToken) {
        boolean ok = false;
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            ok = matches(authorization.substring(7).strip());
        }
        return ok | matches(queryToken); // both checked: no shortcut on which one was given
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "AccessToken[hidden]";
    }
}
