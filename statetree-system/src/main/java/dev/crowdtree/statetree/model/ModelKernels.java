package dev.crowdtree.statetree.model;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.statetree.exec.StateTreeSystem;

/** What {@link ModelWorld} runs on the chunk executor besides the trees: a host system's chunks, level of detail. */
final class ModelKernels {
    private ModelKernels() {
    }

    static boolean overridesExecute(HostSystem s) {
        try {
            return s.getClass().getMethod("execute", ModelTick.class, Chunk.class).getDeclaringClass() != HostSystem.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }

    /** One host system's chunks. */
    static final class SystemKernel implements ChunkKernel {
        private final String name;
        private final HostSystem system;
        private final ModelTick tick;

        SystemKernel(String name, HostSystem system, ModelTick tick) {
            this.name = name;
            this.system = system;
            this.tick = tick;
        }

        @Override
        public void execute(Chunk chunk) {
            system.execute(tick, chunk);
        }

        @Override
        public String kernelName() {
            return "host system '" + name + "'";
        }
    }

    /** Level of detail: each agent's band by its distance to the observer ({@link LodBands#assign}). */
    static final class LodKernel implements ChunkKernel {
        private final LodBands bands;
        private final ByteColumn band;
        private final TickPeriods sink;
        private final FloatColumn xColumn;
        private final FloatColumn yColumn;
        // THREADING: written on the simulation thread between ticks, read by the kernels.
        private float ox;
        private float oy;

        LodKernel(LodBands bands, ByteColumn band, StateTreeSystem system, FloatColumn x, FloatColumn y) {
            this.bands = bands;
            this.band = band;
            this.sink = system::setTickPeriodOfRow;
            this.xColumn = x;
            this.yColumn = y;
        }

        /** Each row's band + 1 (0: none yet). */
        ByteColumn band() {
            return band;
        }

        void observer(float x, float y) {
            ox = x;
            oy = y;
        }

        @Override
        public void execute(Chunk c) {
            bands.assign(xColumn.data(), yColumn.data(), band.data(), c.begin(), c.end(), ox, oy, sink);
        }

        @Override
        public String kernelName() {
            return "lod";
        }
    }
}
