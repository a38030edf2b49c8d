package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import dev.crowdtree.statetree.node.RunStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Same seed and inputs give the same traces and the same bits whatever the number of workers. */
class RuntimeDeterminismTest {

    record Outcome(long hash, List<String> trace, int[] occupancy, int finished) {
    }

    static Outcome run(CompiledStateTree tree, int agents, int workers, int chunkSize, int ticks, boolean traced) {
        List<String> trace = new ArrayList<>();
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 7, workers, chunkSize)) {
            if (traced) {
                sys.setTrace((a, l) -> trace.add("a" + a + " " + l));
            }
            sys.startAll(0);
            for (int k = 1; k <= ticks; k++) {
                // scripted inputs: alarms to a few agents, parameter flips, occasional stops/restarts
                for (int a = 0; a < agents; a += 1 + (int) (CounterRng.bits(3, a, k, 0) & 63)) {
                    if (CounterRng.uniform(3, a, k, 1) < 0.05f) {
                        sys.sendEvent(a, "Alarm", 1f, true);
                    }
                }
                if (k % 17 == 0 && tree.paramIndex("alert") >= 0) {
                    sys.setParameter(k % agents, "alert", k % 2);
                }
                if (k == ticks / 2) {
                    sys.stop(1 % agents, k);
                }
                sys.tickAll(k, 0.1f);
                if (k == ticks / 2 + 3) {
                    sys.startNew(k); // nothing is UNSET: a no-op that must not disturb anything
                }
            }
            int[] occ = new int[tree.stateCount];
            sys.countActiveStates(occ);
            int finished = 0;
            for (int a = 0; a < agents; a++) {
                if (sys.treeStatus(a) != RunStatus.RUNNING) {
                    finished++;
                }
            }
            return new Outcome(sys.world().contentHash(), trace, occ, finished);
        }
    }

    @Test
    void tracesAreIdenticalForOneTwoThreeAndEightWorkers() throws Exception {
        CompiledStateTree tree = StateTreeCompiler.withBuiltins().compile(CrowdTrees.everything());
        Outcome one = run(tree, 300, 1, 16, 120, true);
        assertTrue(one.trace().size() > 5000, "the scenario must do a lot: " + one.trace().size());
        for (int w : new int[] {2, 3, 8}) {
            Outcome other = run(tree, 300, w, 16, 120, true);
            assertEquals(one.trace(), other.trace(), "trace with " + w + " workers");
            assertEquals(one.hash(), other.hash(), "hash with " + w + " workers");
        }
    }

    @Test
    void worldHashIsIdenticalForAnyWorkerCountAtScale() throws Exception {
        for (CompiledStateTree tree : new CompiledStateTree[] {
                StateTreeCompiler.withBuiltins().compile(CrowdTrees.crowd()),
                StateTreeCompiler.withBuiltins().compile(CrowdTrees.everything())}) {
            Outcome one = run(tree, 20_000, 1, 256, 150, false);
            for (int w : new int[] {2, 3, 8}) {
                Outcome other = run(tree, 20_000, w, 256, 150, false);
                assertEquals(one.hash(), other.hash(), tree.name + " hash with " + w + " workers");
                assertEquals(java.util.Arrays.toString(one.occupancy()), java.util.Arrays.toString(other.occupancy()));
            }
        }
    }
}
