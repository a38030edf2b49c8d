package dev.crowdtree.demo.sim;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The whole crowd: deterministic across worker counts, lively, and allocation-free when steady. */
class CrowdSimTest {

    static CrowdConfig config(int agents, int workers) {
        return CrowdConfig.defaults().withAgents(agents).withWorkers(workers).withSeed(9);
    }

    static long hashAfter(int agents, int workers, int ticks) throws Exception {
        try (CrowdSim sim = new CrowdSim(config(agents, workers), null)) {
            for (int i = 0; i < ticks; i++) {
                sim.tick();
            }
            return sim.worldHash();
        }
    }

    @Test
    void worldHashIsTheSameForOneTwoThreeAndEightWorkers() throws Exception {
        long one = hashAfter(30_000, 1, 200);
        for (int w : new int[] {2, 3, 8}) {
            assertEquals(one, hashAfter(30_000, w, 200), "world hash with " + w + " workers");
        }
        assertNotEquals(one, hashAfter(30_000, 1, 201), "the hash must depend on the simulation");
    }

    @Test
    void theCrowdUsesEveryPartOfTheTree() throws Exception {
        try (CrowdSim sim = new CrowdSim(config(50_000, 2), null)) {
            boolean[] seen = new boolean[sim.tree().stateCount];
            int maxDanger = 0;
            int danger = sim.tree().stateByPath("Root/Danger");
            for (int i = 0; i < 1500; i++) {
                sim.tick();
                int[] occ = sim.occupancy();
                int d = 0;
                for (int s = 0; s < occ.length; s++) {
                    seen[s] |= occ[s] > 0;
                    if (sim.tree().isAncestorOrSelf(danger, s)) {
                        d += occ[s];
                    }
                }
                maxDanger = Math.max(maxDanger, d);
            }
            for (int s = 0; s < seen.length; s++) {
                if (!sim.tree().hasChildren(s)) {
                    assertTrue(seen[s], "no agent ever reached " + sim.tree().statePath[s]);
                }
            }
            assertTrue(maxDanger > 500, "threats must put agents in danger: at most " + maxDanger);
            assertTrue(sim.alarms() > 0, "a fire should have ignited and alarmed agents");
            assertTrue(sim.data().objects.usedSlots() > 0, "agents should use smart objects");
        }
    }

    @Test
    void steadyTicksAllocateNothing() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadAllocatedMemorySupported());
        mx.setThreadAllocatedMemoryEnabled(true);
        try (CrowdSim sim = new CrowdSim(config(30_000, 2), null)) {
            for (int i = 0; i < 1200; i++) {
                sim.tick();
            }
            long[] ids = sim.world().executor().workerThreadIds();
            long[] before = mx.getThreadAllocatedBytes(ids);
            long self = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 300; i++) {
                sim.tick();
            }
            long selfAfter = mx.getCurrentThreadAllocatedBytes();
            long[] after = mx.getThreadAllocatedBytes(ids);
            assertEquals(0, selfAfter - self, "simulation thread allocated");
            for (int w = 0; w < ids.length; w++) {
                assertEquals(0, after[w] - before[w], "worker " + (w + 1) + " allocated");
            }
        }
    }
}
