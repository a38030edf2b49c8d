package dev.crowdtree.demo.sim;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.TickPeriods;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The crowd's LOD plumbing with the runtime call replaced by a recorder (the runtime in this branch
 * has no tick periods yet): which rows get which period, when, and that nothing else changes.
 */
public final class CrowdLodTest {
    /**
     * Records the periods handed to the runtime, by agent id (rows move when the table is
     * reordered). Each chunk's kernel touches only its own rows' agents, so it is safe from workers.
     */
    static final class Recorder implements TickPeriods {
        final CrowdData data;
        final int[] period;
        final int[] calls;
        final boolean[] redundant;

        Recorder(CrowdData data, int agents) {
            this.data = data;
            period = new int[agents];
            calls = new int[agents];
            redundant = new boolean[agents];
            Arrays.fill(period, 1);
        }

        @Override
        public void setTickPeriodOfRow(int row, int p) {
            int id = data.table.agentIds().data()[row];
            redundant[id] |= period[id] == p;
            period[id] = p;
            calls[id]++;
        }
    }

    /** A crowd with LOD whose periods go to a recorder instead of the runtime. */
    static CrowdSim withRecorder(CrowdConfig config, float ox, float oy, Recorder[] recorder)
            throws StateTreeCompileException {
        return new CrowdSim(CrowdSetup.of(config).lod(LodBands.defaults()).observer(ox, oy).periods(d -> recorder[0] = new Recorder(d, config.agents())));
    }

    /** A crowd with LOD, periods recorded and dropped (for the command line's tests). */
    public static CrowdSim withRecorder(CrowdConfig config) throws StateTreeCompileException {
        return withRecorder(config, config.worldSize() / 2, config.worldSize() / 2, new Recorder[1]);
    }

    private static CrowdConfig config(int agents, int workers) {
        return CrowdSimTest.config(agents, workers);
    }

    @Test
    void lodOffLeavesTheWorldAsItWasAndLodOnChangesIt() throws Exception {
        long plain;
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(config(5000, 2)))) {
            for (int i = 0; i < 40; i++) {
                sim.tick();
            }
            assertNull(sim.lod());
            plain = sim.worldHash();
        }
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(config(5000, 2)).lod(LodBands.defaults()))) {
            for (int i = 0; i < 40; i++) {
                sim.tick();
            }
            assertNotNull(sim.lod());
            assertTrue(sim.system().awakeLastTick() < 5000 / 2, "far agents take part in a fraction of the ticks");
            assertNotEquals(plain, sim.worldHash(), "with periods the far agents run coarser: another world");
        }
    }

    @Test
    void periodsFollowTheBandsWithHysteresisAndOnlyChangesReachTheRuntime() throws Exception {
        Recorder[] rec = new Recorder[1];
        int agents = 20_000;
        LodBands bands = LodBands.defaults();
        try (CrowdSim sim = withRecorder(config(agents, 2), 600f, 700f, rec)) {
            CrowdData d = sim.data();
            int[] prevBand = new int[agents];
            int[] expectedCalls = new int[agents];
            int[] ids = d.table.agentIds().data();
            for (int r = 0; r < agents; r++) { // the grid phase of the start
                int b = sim.lodBandOfRow(r);
                prevBand[ids[r]] = b;
                expectedCalls[ids[r]] += bands.periodOfBand(b) == 1 ? 0 : 1;
            }
            int changes = 0;
            for (int t = 0; t < 120; t++) {
                if (t == 60) {
                    sim.setObserver(1500f, 300f); // the observer moves: many bands change at once
                }
                sim.tick();
                ids = d.table.agentIds().data();
                float[] sx = d.snapX.data();
                float[] sy = d.snapY.data();
                for (int r = 0; r < agents; r++) {
                    int id = ids[r];
                    float dx = sx[r] - sim.observerX();
                    float dy = sy[r] - sim.observerY();
                    int b = sim.lodBandOfRow(r);
                    assertEquals(bands.band(dx * dx + dy * dy, prevBand[id]), b, "band of agent " + id);
                    if (b != prevBand[id]) {
                        expectedCalls[id]++;
                        changes++;
                    }
                    prevBand[id] = b;
                    assertEquals(bands.periodOfBand(b), rec[0].period[id], "period the runtime has for agent " + id);
                }
            }
            assertArrayEquals(expectedCalls, rec[0].calls, "one call per band change, none otherwise");
            for (int id = 0; id < agents; id++) {
                assertTrue(!rec[0].redundant[id], "agent " + id + " was sent the period it already had");
            }
            assertTrue(changes > 1000, "the observer's move changes many bands: " + changes);
            int[] counts = new int[bands.count()];
            sim.countLodBands(counts);
            assertEquals(agents, Arrays.stream(counts).sum());
            int[] byPeriod = new int[bands.count()];
            for (int id = 0; id < agents; id++) {
                byPeriod[bands.bandOfPeriod(rec[0].period[id])]++;
            }
            assertArrayEquals(byPeriod, counts);
            for (int b = 0; b < counts.length; b++) {
                assertTrue(counts[b] > 0, "band " + bands.describe(b) + " is empty: " + Arrays.toString(counts));
            }
        }
    }

    @Test
    void whileTheRuntimeTicksEveryoneLodChangesNoAgentsBehaviour() throws Exception {
        // The recorder does not slow anyone down, so the crowd must move exactly as without LOD,
        // even though desired velocities of agents in coarse bands now persist between ticks.
        int agents = 8000;
        try (CrowdSim plain = new CrowdSim(CrowdSetup.of(config(agents, 2)));
             CrowdSim lod = withRecorder(config(agents, 2), 700f, 900f, new Recorder[1])) {
            for (int t = 0; t < 150; t++) {
                plain.tick();
                lod.tick();
            }
            assertArrayEquals(plain.occupancy(), lod.occupancy());
            for (int id = 0; id < agents; id++) {
                int a = plain.world().agent(id).row();
                int b = lod.world().agent(id).row();
                assertEquals(a, b, "row of agent " + id);
                for (FloatColumnPair p : new FloatColumnPair[] {
                        new FloatColumnPair(plain.data().x.data(), lod.data().x.data()),
                        new FloatColumnPair(plain.data().y.data(), lod.data().y.data()),
                        new FloatColumnPair(plain.data().vx.data(), lod.data().vx.data()),
                        new FloatColumnPair(plain.data().vy.data(), lod.data().vy.data())}) {
                    assertEquals(Float.floatToIntBits(p.a[a]), Float.floatToIntBits(p.b[b]), "agent " + id);
                }
            }
        }
    }

    private record FloatColumnPair(float[] a, float[] b) {
    }

    @Test
    void theSelectedAgentsNeighbourhoodTicksEveryStep() throws Exception {
        Recorder[] rec = new Recorder[1];
        try (CrowdSim sim = withRecorder(config(5000, 2), 1000f, 1000f, rec)) {
            int row = 1234;
            int id = sim.data().table.agentIds().data()[row];
            sim.setObserver(sim.data().x.get(row), sim.data().y.get(row));
            sim.tick();
            assertEquals(1, rec[0].period[id]);
            assertEquals(0, sim.lodBandOfRow(sim.world().agent(id).row()));
        }
    }

    @Test
    void periodsAndWorldAreTheSameForOneAndThreeWorkers() throws Exception {
        Recorder[] one = new Recorder[1];
        Recorder[] three = new Recorder[1];
        long h1;
        long h3;
        try (CrowdSim sim = withRecorder(config(15_000, 1), 300f, 1200f, one)) {
            for (int i = 0; i < 100; i++) {
                sim.tick();
            }
            h1 = sim.worldHash();
        }
        try (CrowdSim sim = withRecorder(config(15_000, 3), 300f, 1200f, three)) {
            for (int i = 0; i < 100; i++) {
                sim.tick();
            }
            h3 = sim.worldHash();
        }
        assertEquals(h1, h3);
        assertArrayEquals(one[0].period, three[0].period);
        assertArrayEquals(one[0].calls, three[0].calls);
    }

    @Test
    void withTheRuntimesPeriodsTheWorldIsTheSameForOneAndThreeWorkers() throws Exception {
        // In a branch whose runtime refuses periods, LOD is off here and this compares plain runs;
        // with tick periods in the runtime it checks LOD end to end.
        long[] hash = new long[2];
        int[] workers = {1, 3};
        for (int i = 0; i < 2; i++) {
            try (CrowdSim sim = new CrowdSim(CrowdSetup.of(config(12_000, workers[i])).lod(LodBands.defaults()).observer(900f, 1100f))) {
                for (int t = 0; t < 120; t++) {
                    sim.tick();
                }
                hash[i] = sim.worldHash();
                if (sim.lod() != null) {
                    // ~80% of the world is beyond 500 m (period 8): most agents skip most steps
                    assertTrue(sim.awakeMean() < 0.5 * sim.runningAgents(),
                            "awake " + sim.awakeMean() + " of " + sim.runningAgents());
                }
            }
        }
        assertEquals(hash[0], hash[1]);
    }

    @Test
    void steadyTicksWithLodAllocateNothing() throws Exception {
        try (CrowdSim sim = withRecorder(config(30_000, 2), 1000f, 1000f, new Recorder[1])) {
            // the observer walks in circles: bands change every tick
            CrowdSimTest.assertSteadyTicksAllocateNothing(sim,
                    t -> sim.setObserver(1000f + 300f * (float) Math.cos(t * 0.01), 1000f + 300f * (float) Math.sin(t * 0.01)));
            assertTrue(sim.awakeMin() <= sim.awakeMean() && sim.awakeMean() <= sim.awakeMax());
            assertTrue(sim.awakeMax() <= sim.runningAgents());
        }
    }
}
