package dev.crowdtree.core;

import dev.crowdtree.core.metrics.AllocationWindows;
import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A steady tick (phases, sync, clock, metrics) allocates nothing, on the simulation thread and on
 * the workers, measured with the JVM's per-thread allocation counters: after 3,000 warm-up ticks,
 * one of up to four windows of 500 ticks must be clean ({@link AllocationWindows}).
 */
class SteadyTickAllocationTest {

    /** pos += vel * dt over a chunk. */
    static final class Move implements ChunkKernel {
        final FloatColumn x, vx;
        final float dt;

        Move(FloatColumn x, FloatColumn vx, float dt) {
            this.x = x;
            this.vx = vx;
            this.dt = dt;
        }

        @Override
        public void execute(Chunk c) {
            final float[] px = x.data(), v = vx.data();
            final float d = dt;
            for (int r = c.begin(), e = c.end(); r < e; r++) {
                px[r] += v[r] * d;
            }
        }
    }

    @Test
    void steadyTickAllocatesNothingOnAnyThread() {
        assumeTrue(AllocationWindows.supported(), "JVM cannot measure per-thread allocation");
        for (int workers : new int[] {1, 2, 3}) {
            try (World world = World.builder().workers(workers).chunkSize(1024).build()) {
                SoaTable t = world.createTable("agents");
                FloatColumn x = t.addFloat("x");
                FloatColumn vx = t.addFloat("vx");
                for (int i = 0; i < 50_000; i++) {
                    world.commands().spawn(t, (tb, row, id, arg) -> vx.set(row, id % 7), 0);
                }
                world.sync();
                TickMetrics metrics = new TickMetrics("move");
                Move move = new Move(x, vx, world.clock().dt());
                for (int i = 0; i < 3000; i++) {
                    tick(world, t, move, metrics);
                }
                String dirty = AllocationWindows.findClean(world.executor().workerThreadIds(), 4, 500,
                        i -> tick(world, t, move, metrics));
                assertEquals("", dirty, "no window of 500 steady ticks without allocation, workers=" + workers);
            }
        }
    }

    private static void tick(World world, SoaTable t, Move move, TickMetrics metrics) {
        long t0 = System.nanoTime();
        world.runPhase(t, move);
        long t1 = System.nanoTime();
        world.sync();
        world.clock().advance();
        metrics.recordPhase(0, t1 - t0);
        metrics.recordTick(System.nanoTime() - t0);
    }
}
