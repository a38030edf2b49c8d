package dev.crowdtree.core;

import dev.crowdtree.core.util.Printable;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Text from outside is printed with its control and bidirectional characters escaped and, when huge, shortened. */
class PrintableTest {
    @Test
    void printableTextIsReturnedAsItIs() {
        String s = "Root/Peaceful/Wander ünïcödé \uD83D\uDE00 back\\slash \"quoted\"";
        assertSame(s, Printable.escape(s));
        assertEquals("null", Printable.escape(null));
    }

    @Test
    void controlCharactersAndLoneSurrogatesAreEscaped() {
        assertEquals("a\\u001B[31mred\\u0000\\u000A\\u007F\\u0085\\u009F", Printable.escape("a\u001b[31mred\u0000\n\u007f\u0085\u009f"));
        assertEquals("x\\uD800y\\uDC00", Printable.escape("x\ud800y\udc00"));
        assertEquals("\\uD800", Printable.escape("\ud800"));
        assertEquals("\uD83D\uDE00", Printable.escape("\uD83D\uDE00"));
    }

    @Test
    void bidirectionalControlsAndLineSeparatorsAreEscaped() {
        // every character of the rule, and its neighbours left alone
        assertEquals("\\u061C \\u200E\\u200F \\u2028\\u2029\\u202A\\u202B\\u202C\\u202D\\u202E \\u2066\\u2067\\u2068\\u2069",
                Printable.escape("\u061c \u200e\u200f \u2028\u2029\u202a\u202b\u202c\u202d\u202e \u2066\u2067\u2068\u2069"));
        String neighbours = "\u061b\u061d\u200d\u2010\u2027\u202f\u2065\u206a \u05d0\u05d1 \u0627";
        assertSame(neighbours, Printable.escape(neighbours), "Hebrew and Arabic letters and nearby punctuation print as they are");
        assertEquals("Root/\\u202Ekcatta", Printable.escape("Root/\u202ekcatta"));
    }

    @Test
    void longTextKeepsItsStartAndItsEnd() {
        String s = "a".repeat(5000) + "END";
        String t = Printable.shorten(s, 300);
        assertTrue(t.length() < 340, t);
        assertTrue(t.startsWith("aaaa") && t.endsWith("aaEND") && t.contains("...(4703 characters)..."), t);
        assertSame(s, Printable.shorten(s, 6000));
        assertEquals("\\u0007".repeat(4) + "...(94 characters)..." + "\\u0007".repeat(2), Printable.clean("\u0007".repeat(100), 6));
    }
}
