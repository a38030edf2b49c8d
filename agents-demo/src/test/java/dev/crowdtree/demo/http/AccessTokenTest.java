package dev.crowdtree.demo.http;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code --token} secret: what it accepts as a token, and how a request may carry it. */
class AccessTokenTest {
    private static final String T = "0123456789abcdef-XYZ";

    @Test
    void aRequestCarriesTheTokenInABearerHeaderOrTheQuery() {
        AccessToken t = AccessToken.of(T);
        assertTrue(t.allows("Bearer " + T, null));
        assertTrue(t.allows("bearer  " + T + " ", null));
        assertTrue(t.allows(null, T));
        assertTrue(t.allows("Bearer wrong", T));
        assertFalse(t.allows(null, null));
        assertFalse(t.allows("Basic " + T, null));
        assertFalse(t.allows("Bearer " + T + "x", null));
        assertFalse(t.allows(null, T.substring(1)));
        assertFalse(t.allows("Bearer ", ""));
        assertEquals("AccessToken[hidden]", t.toString());
    }

    @Test
    void tokensAreLongAndUrlSafe() {
        for (String bad : new String[] {null, "", "short", "x".repeat(15), "x".repeat(257), "has space 0123456789",
                "quote\"0123456789abc", "amp&0123456789abcdef", "<script>0123456789"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AccessToken.of(bad));
            assertTrue(e.getMessage().startsWith("--token must be 16 to 256 characters"), e.getMessage());
        }
        assertEquals("x".repeat(16), AccessToken.of("x".repeat(16)).value());
        assertEquals("a.b_c~d-e".repeat(4), AccessToken.of("a.b_c~d-e".repeat(4)).value());
    }
}
