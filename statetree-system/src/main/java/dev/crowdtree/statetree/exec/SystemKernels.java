package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;

/**
 * The chunk kernels of a {@link StateTreeSystem}: each hands one chunk of the tick, the start or
 * stop, or the timer rebase to its worker's {@link ChunkRunner}, with the chunk's schedule and output.
 * THREADING: one kernel instance per system, run by the world's executor; a call reads the system's
 * per-call values (tick, step, dt), which the simulation thread set before the executor ran.
 */
final class SystemKernels {
    private SystemKernels() {
    }

    /** One tick of a chunk. */
    static final class Tick implements ChunkKernel {
        private final StateTreeSystem sys;

        Tick(StateTreeSystem sys) {
            this.sys = sys;
        }

        @Override
        public void execute(Chunk c) {
            sys.runner(c.worker()).tickChunk(c);
        }

        @Override
        public String kernelName() {
            return "StateTree tick (" + sys.tree().name + ")";
        }
    }

    /** Start (of the never-started rows, or with {@code all} of every row) or Stop of every running row. */
    static final class StartStop implements ChunkKernel {
        private final StateTreeSystem sys;
        private final boolean start;
        boolean all;

        StartStop(StateTreeSystem sys, boolean start) {
            this.sys = sys;
            this.start = start;
        }

        @Override
        public void execute(Chunk c) {
            ChunkSchedule schedule = sys.schedules()[c.index()];
            if (start) {
                sys.runner(c.worker()).startChunk(schedule, c.begin(), c.end(), all, sys.output(c.index()),
                        sys.currentTick(), sys.steps());
            } else {
                sys.runner(c.worker()).stopRange(schedule, c.begin(), c.end(), c.begin(), c.end(), sys.output(c.index()),
                        sys.currentTick(), sys.steps());
            }
        }

        @Override
        public String kernelName() {
            return "StateTree " + (start ? "start" : "stop") + " (" + sys.tree().name + ")";
        }
    }

    /** Re-derives the due steps of running timers after a change of dt (before the next step). */
    static final class Rebase implements ChunkKernel {
        private final StateTreeSystem sys;
        float oldDt;

        Rebase(StateTreeSystem sys) {
            this.sys = sys;
        }

        @Override
        public void execute(Chunk c) {
            sys.runner(c.worker()).rebaseChunk(c.begin(), c.end(), sys.steps(), oldDt, sys.currentDt());
        }

        @Override
        public String kernelName() {
            return "StateTree timer rebase (" + sys.tree().name + ")";
        }
    }
}
