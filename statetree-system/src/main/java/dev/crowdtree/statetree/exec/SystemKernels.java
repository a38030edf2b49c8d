package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;

/**
 * The chunk kernels of an {@link Engine}: each hands one chunk of the tick, the start or stop, or
 * the timer rebase to its worker's {@link ChunkRunner}, with the chunk's schedule and output and the
 * engine's {@link TickFrame} (the call's tick, step, dts and observer switches).
 * THREADING: one kernel instance per engine, run by the world's executor; a call reads the frame and
 * the chunks, which the simulation thread wrote before the executor ran. Allocation: none.
 */
final class SystemKernels {
    private SystemKernels() {
    }

    /** One tick of a chunk. */
    static final class Tick implements ChunkKernel {
        private final Engine engine;

        Tick(Engine engine) {
            this.engine = engine;
        }

        @Override
        public void execute(Chunk c) {
            final Engine e = engine;
            final int i = c.index();
            e.runners[c.worker()].tickChunk(c, e.chunks.schedules[i], e.chunks.outputs[i], e.frame);
        }

        @Override
        public String kernelName() {
            return "StateTree tick (" + engine.tree.name + ")";
        }
    }

    /** Start (of the never-started rows, or with {@code all} of every row) or Stop of every running row. */
    static final class StartStop implements ChunkKernel {
        private final Engine engine;
        private final boolean start;
        boolean all;

        StartStop(Engine engine, boolean start) {
            this.engine = engine;
            this.start = start;
        }

        @Override
        public void execute(Chunk c) {
            final Engine e = engine;
            final int i = c.index();
            ChunkSchedule schedule = e.chunks.schedules[i];
            ChunkOutput output = e.chunks.outputs[i];
            if (start) {
                e.runners[c.worker()].startChunk(schedule, c.begin(), c.end(), all, output, e.frame);
            } else {
                e.runners[c.worker()].stopRange(schedule, c.begin(), c.end(), c.begin(), c.end(), output, e.frame);
            }
        }

        @Override
        public String kernelName() {
            return "StateTree " + (start ? "start" : "stop") + " (" + engine.tree.name + ")";
        }
    }

    /** Re-derives the due steps of running timers after a change of dt (before the frame's step): from the frame's timer dt to its dt. */
    static final class Rebase implements ChunkKernel {
        private final Engine engine;

        Rebase(Engine engine) {
            this.engine = engine;
        }

        @Override
        public void execute(Chunk c) {
            final TickFrame f = engine.frame;
            engine.runners[c.worker()].rebaseChunk(c.begin(), c.end(), f.step, f.timerDt, f.dt);
        }

        @Override
        public String kernelName() {
            return "StateTree timer rebase (" + engine.tree.name + ")";
        }
    }
}
