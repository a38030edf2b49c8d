package dev.crowdtree.core;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same kernels over the same data give bit-identical columns with 1, 2, 3 and 8 workers,
 * including random draws and structural changes recorded by kernels into per-chunk buffers.
 */
class ExecutorDeterminismTest {

    /** Result of one simulated run: the world hash and the final columns. */
    record Outcome(long hash, int agents, float[] x, float[] y, int[] ids) {
    }

    static Outcome simulate(int workers, int chunkSize, int initialAgents, int ticks) {
        try (World world = World.builder().workers(workers).chunkSize(chunkSize).seed(42).dt(0.1f).build()) {
            SoaTable t = world.createTable("agents");
            FloatColumn x = t.addFloat("x");
            FloatColumn y = t.addFloat("y");
            FloatColumn vx = t.addFloat("vx");
            FloatColumn vy = t.addFloat("vy");
            IntColumn age = t.addInt("age");
            SpawnInitializer init = (tb, row, id, arg) -> {
                x.set(row, CounterRng.range(0, 100, 42, id, arg, 1, 0));
                y.set(row, CounterRng.range(0, 100, 42, id, arg, 1, 1));
                vx.set(row, CounterRng.range(-1, 1, 42, id, arg, 2, 0));
                vy.set(row, CounterRng.range(-1, 1, 42, id, arg, 2, 1));
            };
            for (int i = 0; i < initialAgents; i++) {
                world.commands().spawn(t, init, 0);
            }
            world.sync();
            for (int tick = 1; tick <= ticks; tick++) {
                final long now = tick;
                // Phase 1: movement with a random jitter and a bounce, pure per-row math.
                world.runPhase(t, new ChunkKernel() {
                    @Override
                    public void execute(Chunk c) {
                        float[] px = x.data(), py = y.data(), pvx = vx.data(), pvy = vy.data();
                        int[] ids = t.agentIds().data();
                        int[] ages = age.data();
                        for (int r = c.begin(); r < c.end(); r++) {
                            float j = CounterRng.range(-0.05f, 0.05f, 42, ids[r], now, 3, 0);
                            px[r] += (pvx[r] + j) * 0.1f;
                            py[r] += pvy[r] * 0.1f;
                            if (px[r] < 0 || px[r] > 100) {
                                pvx[r] = -pvx[r];
                            }
                            if (py[r] < 0 || py[r] > 100) {
                                pvy[r] = -pvy[r];
                            }
                            ages[r]++;
                        }
                    }
                });
                // Phase 2: random deaths and births through the chunk command buffers.
                world.runPhase(t, c -> {
                    int[] ids = t.agentIds().data();
                    for (int r = c.begin(); r < c.end(); r++) {
                        float u = CounterRng.uniform(42, ids[r], now, 4);
                        if (u < 0.01f) {
                            world.commands(c).despawn(ids[r]);
                        } else if (u > 0.99f) {
                            world.commands(c).spawn(t, init, now);
                        }
                    }
                });
                world.sync();
                world.clock().advance();
            }
            int n = t.size();
            return new Outcome(world.contentHash(), n, Arrays.copyOf(x.data(), n), Arrays.copyOf(y.data(), n),
                    Arrays.copyOf(t.agentIds().data(), n));
        }
    }

    @Test
    void sameKernelsGiveBitIdenticalColumnsForAnyWorkerCount() {
        Outcome one = simulate(1, 256, 20_000, 40);
        assertTrue(one.agents() > 1000);
        for (int workers : new int[] {2, 3, 8}) {
            Outcome other = simulate(workers, 256, 20_000, 40);
            assertEquals(one.agents(), other.agents(), "agent count with " + workers + " workers");
            assertArrayEquals(one.ids(), other.ids(), "row order with " + workers + " workers");
            assertArrayEquals(one.x(), other.x(), "x with " + workers + " workers");
            assertArrayEquals(one.y(), other.y(), "y with " + workers + " workers");
            assertEquals(one.hash(), other.hash(), "world hash with " + workers + " workers");
        }
    }

    @Test
    void hashChangesWhenTheSimulationChanges() {
        // Guards the test above against a hash that ignores the data.
        assertTrue(simulate(2, 256, 5_000, 10).hash() != simulate(2, 256, 5_000, 11).hash());
    }
}
