package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Like for like: every implementation of the harness, run from one seed, must have every agent in
 * the same state after every checkpoint, and so the same per-state occupancy after K ticks.
 * Agents are compared one by one (stronger than occupancy), at every 25th tick.
 */
class EquivalenceTest {
    static final int AGENTS = 5000;
    static final int TICKS = 300;
    static final long SEED = 42;
    static final float DT = 1f / 30f;

    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyImplementationReachesTheSameStates(Variant variant) {
        CompiledStateTree tree = variant.compile();
        Logic logic = Logic.of(variant, tree);
        List<Impl> impls = new ArrayList<>(List.of(Impl.values()));
        List<Population> pops = new ArrayList<>();
        try {
            for (Impl impl : impls) {
                Population p = impl.create(logic, AGENTS, SEED);
                pops.add(p);
                p.start();
            }
            int[] expected = new int[AGENTS];
            int[] actual = new int[AGENTS];
            int transitions = 0;
            int[] previous = null;
            for (int tick = 0; tick <= TICKS; tick++) {
                if (tick > 0) {
                    for (Population p : pops) {
                        p.tick(tick, DT);
                    }
                }
                if (tick % 25 != 0 && tick != TICKS) {
                    continue;
                }
                pops.get(0).states(expected);
                for (int i = 1; i < pops.size(); i++) {
                    Arrays.fill(actual, -2);
                    pops.get(i).states(actual);
                    for (int a = 0; a < AGENTS; a++) {
                        if (actual[a] != expected[a]) {
                            fail(variant.id() + ": " + impls.get(i).id() + " has agent " + a + " in "
                                    + name(tree, actual[a]) + " at tick " + tick + ", " + impls.get(0).id()
                                    + " in " + name(tree, expected[a]));
                        }
                    }
                }
                if (previous != null) {
                    for (int a = 0; a < AGENTS; a++) {
                        transitions += previous[a] != expected[a] ? 1 : 0;
                    }
                }
                previous = expected.clone();
            }
            int[] occupancy = occupancy(tree, expected);
            for (int i = 1; i < pops.size(); i++) {
                pops.get(i).states(actual);
                assertArrayEquals(occupancy, occupancy(tree, actual), impls.get(i).id() + " occupancy after " + TICKS + " ticks");
            }
            // The comparison means something: the population is spread over the leaves, danger included.
            int used = 0;
            for (int c : occupancy) {
                used += c > 0 ? 1 : 0;
            }
            assertEquals(variant == Variant.HIERARCHICAL ? 7 : 5, used, "occupied leaves " + Arrays.toString(occupancy));
            assertTrue(transitions > AGENTS, "agents changed state between checkpoints " + transitions + " times");
        } finally {
            for (Population p : pops) {
                p.close();
            }
        }
    }

    static int[] occupancy(CompiledStateTree tree, int[] states) {
        int[] c = new int[tree.stateCount];
        for (int s : states) {
            c[s]++;
        }
        return c;
    }

    private static String name(CompiledStateTree tree, int s) {
        return s < 0 ? "(none: " + s + ")" : tree.statePath[s];
    }
}
