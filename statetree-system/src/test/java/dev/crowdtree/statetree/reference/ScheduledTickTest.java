package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import dev.crowdtree.statetree.internal.Countdown;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reference interpreter's scheduled tick skips sleeping agents; its tick periods are validated. */
class ScheduledTickTest {
    private static CompiledStateTree napper() throws Exception {
        return StateTreeCompiler.withBuiltins().compile(CrowdTrees.napper());
    }

    @Test
    void sleepingAgentsAreNotTickedAndWakeForTimersEventsAndParameters() throws Exception {
        CompiledStateTree tree = napper();
        long due = Countdown.steps(1f, 0.1f);
        try (ReferenceInterpreter plain = new ReferenceInterpreter(tree, 500, 1);
             ReferenceInterpreter scheduled = new ReferenceInterpreter(tree, 500, 1, ReferenceInterpreter.TickMode.SCHEDULED)) {
            plain.startAll(0);
            scheduled.startAll(0);
            for (int k = 1; k <= due; k++) {
                if (k == 3) {
                    plain.sendEvent(7, "Poke", 0f, false);
                    scheduled.sendEvent(7, "Poke", 0f, false);
                }
                if (k == 5) {
                    plain.setParameter(9, "p", 1);
                    scheduled.setParameter(9, "p", 1);
                }
                plain.tickAll(k, 0.1f);
                scheduled.tickAll(k, 0.1f);
                assertEquals(500, plain.awakeLastTick(), "every running agent ticks in the plain mode");
                int expected = k == 1 ? 500 : k == 3 || k == 5 ? 1 : k == due ? 499 : 0;
                assertEquals(expected, scheduled.awakeLastTick(), "agents ticked at step " + k
                        + " (all at the first, which decides who sleeps; then only those with something to do)");
                for (int a = 0; a < 500; a++) {
                    assertEquals(plain.activePath(a), scheduled.activePath(a), "agent " + a + " at tick " + k);
                }
            }
            assertEquals("Root/B", scheduled.activePath(0));
        }
    }

    @Test
    void periodsMustBePowersOfTwoUpTo64() throws Exception {
        try (ReferenceInterpreter r = new ReferenceInterpreter(napper(), 2, 1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.setTickPeriod(0, 6));
            assertEquals("tick period 6 for agent 0 is not valid; valid periods are 1, 2, 4, 8, 16, 32, 64", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> r.setTickPeriod(2, 2));
            r.setTickPeriod(ReferenceInterpreter.ALL, 8);
            assertEquals(8, r.tickPeriod(1), "a tree that is not running takes a period at once");
        }
        ScenarioException e = assertThrows(ScenarioException.class, () -> Scenario.parse(
                "{\"ticks\": 3, \"inputs\": [{\"tick\": 1, \"period\": 3}]}", "s.json", null));
        assertTrue(e.getMessage().contains("inputs[0].period"), e.getMessage());
        assertTrue(e.getMessage().contains("expected a tick period 1, 2, 4, 8, 16, 32 or 64, got 3"), e.getMessage());
    }
}
