package dev.crowdtree.statetree.compiler;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The "did you mean" helper: distance, threshold, order, limit and budget. */
class SuggestionsTest {
    @Test
    void optimalStringAlignmentDistance() {
        assertEquals(0, Suggestions.distance("delay", "delay", 3));
        assertEquals(1, Suggestions.distance("dealy", "delay", 3), "a transposition is one edit");
        assertEquals(1, Suggestions.distance("chace", "chase", 3));
        assertEquals(1, Suggestions.distance("alrt", "alert", 3), "an insertion");
        assertEquals(1, Suggestions.distance("volumes", "volume", 3), "a deletion");
        assertEquals(3, Suggestions.distance("kitten", "sitting", 3));
        assertEquals(3, Suggestions.distance("ca", "abc", 3), "optimal string alignment, not full Damerau-Levenshtein");
        assertTrue(Suggestions.distance("abcdef", "uvwxyz", 2) > 2, "stops above the limit");
        assertTrue(Suggestions.distance("a", "abcdefgh", 2) > 2);
    }

    @Test
    void closeNamesAreSuggestedClosestFirstTiesInTheGivenOrder() {
        List<String> states = List.of("Patrol", "Chase", "Chest", "Return", "Cache");
        assertEquals(List.of("Chase"), Suggestions.closest("Chace", states), "Cache is two edits away");
        assertEquals(List.of("Chase"), Suggestions.closest("chase", states), "case differences are distance 0");
        assertEquals(List.of("Chase", "Chest", "Chose"),
                Suggestions.closest("Chese", List.of("Chase", "Chest", "Cache", "Chose", "Chess")),
                "at most three, in the given order among equals");
        assertEquals(List.of("Chase", "CHASE", "Chase2"), Suggestions.closest("Chase", List.of("Chase2", "Chase", "CHASE")),
                "exact and case-only matches (distance 0) before a distance-1 name");
    }

    @Test
    void theThresholdGrowsWithTheLength() {
        // max(1, length / 3): one edit up to 5 characters, two from 6, three from 9
        assertEquals(List.of(), Suggestions.closest("Idle", List.of("Ready")));
        assertEquals(List.of(), Suggestions.closest("Rset", List.of("Reset2")), "two edits for a 4-letter name");
        assertEquals(List.of("Reset2"), Suggestions.closest("Rset22", List.of("Reset2")), "two edits, 6 letters");
        assertEquals(List.of("perception"), Suggestions.closest("percpetoin", List.of("perception")),
                "two edits, 10 letters");
        assertEquals(List.of(), Suggestions.closest("x", List.of("yy")));
        assertEquals(List.of("y"), Suggestions.closest("x", List.of("y")), "at least one edit");
    }

    @Test
    void theMessageTail() {
        assertEquals("; did you mean [delay]?", Suggestions.didYouMean("dealy", List.of("run", "delay", "fail")));
        assertEquals("", Suggestions.didYouMean("teleport", List.of("run", "delay", "fail")));
        assertEquals("", Suggestions.didYouMean("x", List.of()));
        assertEquals("; did you mean [a, b]?", Suggestions.format(List.of("a", "b")));
    }

    @Test
    void duplicatesAreSuggestedOnceAndLongNamesOnlyIgnoringCase() {
        assertEquals(List.of("Rest"), Suggestions.closest("Rst", List.of("Rest", "Rest")));
        String longName = "a".repeat(Suggestions.MAX_LENGTH + 1);
        assertEquals(List.of(), Suggestions.closest(longName + "b", List.of(longName + "c")));
        assertEquals(List.of(longName.toUpperCase()), Suggestions.closest(longName, List.of(longName.toUpperCase())));
    }

    @Test
    void aSpentBudgetLeavesOnlyCaseDifferences() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add("State" + i);
        }
        Suggestions small = new Suggestions(100);
        assertEquals(List.of("State1"), small.closestOf("Stat1", many, n -> n));
        // the budget is spent now: edit distance is no longer computed
        assertEquals("", small.suggest("Stat2", many));
        assertEquals("; did you mean [State2]?", small.suggest("STATE2", many));
        assertEquals("; did you mean [State2]?", new Suggestions(Suggestions.DEFAULT_BUDGET).suggest("Stat2", many));
    }
}
