package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A steady StateTree tick allocates nothing, on the simulation thread and on every worker. */
class RuntimeAllocationTest {

    @Test
    void steadyCrowdTickAllocatesNothing() throws Exception {
        assertSteadyTicksAllocateNothing(CrowdTrees.crowd(), 20_000);
    }

    @Test
    void steadyTickWithEventsGatesAndFailuresAllocatesNothing() throws Exception {
        assertSteadyTicksAllocateNothing(CrowdTrees.everything(), 20_000);
    }

    private static void assertSteadyTicksAllocateNothing(TreeDef def, int agents) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadAllocatedMemorySupported());
        mx.setThreadAllocatedMemoryEnabled(true);
        CompiledStateTree tree = StateTreeCompiler.withBuiltins().compile(def);
        for (int workers : new int[] {1, 2}) {
            try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 3, workers, 1024)) {
                sys.setTiming(true);
                sys.startAll(0);
                long k = 1;
                // Warm up long enough that rare paths have run once: a first execution can make the
                // JVM resolve or initialize something on this thread (seen once: 160 bytes), which
                // is not a steady tick's allocation.
                for (; k <= 4000; k++) {
                    sys.tickAll(k, 1f / 30f);
                }
                long[] ids = sys.world().executor().workerThreadIds();
                long[] before = ids.length == 0 ? new long[0] : mx.getThreadAllocatedBytes(ids);
                long self = mx.getCurrentThreadAllocatedBytes();
                int transitions = 0;
                for (int i = 0; i < 300; i++, k++) {
                    int c0 = sys.stateChangeCount(0);
                    sys.tickAll(k, 1f / 30f);
                    transitions += sys.stateChangeCount(0) - c0;
                }
                long selfAfter = mx.getCurrentThreadAllocatedBytes();
                long[] after = ids.length == 0 ? new long[0] : mx.getThreadAllocatedBytes(ids);
                assertTrue(transitions > 0, "agent 0 should have changed state in 300 ticks");
                assertEquals(0, selfAfter - self, tree.name + ": simulation thread allocated, workers=" + workers);
                for (int w = 0; w < ids.length; w++) {
                    assertEquals(0, after[w] - before[w], tree.name + ": worker " + (w + 1) + " allocated");
                }
            }
        }
    }
}
