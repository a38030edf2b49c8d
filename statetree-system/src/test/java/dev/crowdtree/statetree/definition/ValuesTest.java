package dev.crowdtree.statetree.definition;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one description of a value in error messages, shared by the asset reader, the compiler and scenarios. */
class ValuesTest {
    @Test
    void describesEveryKindOfValueOnOneShortLine() {
        assertEquals("null", Values.describe(null));
        assertEquals("\"Root/Alrt\" (a string)", Values.describe("Root/Alrt"));
        assertEquals("\"" + "x".repeat(40) + "...\" (a string)", Values.describe("x".repeat(3000)));
        assertEquals("true (a boolean)", Values.describe(true));
        assertEquals("2.5 (a number)", Values.describe(2.5));
        assertEquals("a list", Values.describe(List.of(1)));
        assertEquals("an object", Values.describe(Map.of("a", 1)));
        assertEquals("StringBuilder", Values.describe(new StringBuilder("?")));
    }
}
