package dev.crowdtree.demo.sim;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.TickPeriods;

/**
 * The crowd's grid phase ({@link CrowdSim}): each agent's cell, the position snapshot that other
 * agents read this tick, and the chunk's part of the sort by cell; with LOD, each agent's band by its
 * distance to the observer ({@link LodBands#assign}). Allocation: none.
 */
final class CrowdGridKernel implements ChunkKernel {
    private final CrowdData data;
    /** The bands in effect, their column and where periods go, or null; set once before the first grid phase. */
    private LodBands lod;
    private ByteColumn band;
    private TickPeriods periods;
    // THREADING: written on the simulation thread between phases, read by the grid kernels.
    private float observerX;
    private float observerY;

    CrowdGridKernel(CrowdData data) {
        this.data = data;
    }

    /** LOD by {@code bands} (null: off), bands kept in {@code column}, periods handed to {@code sink}. */
    void lod(LodBands bands, ByteColumn column, TickPeriods sink) {
        this.lod = bands;
        this.band = column;
        this.periods = sink;
    }

    /** Where the LOD observer stands from the next grid phase on. */
    void observer(float x, float y) {
        observerX = x;
        observerY = y;
    }

    @Override
    public void execute(Chunk c) {
        final float[] x = data.x.data();
        final float[] y = data.y.data();
        final float[] sx = data.snapX.data();
        final float[] sy = data.snapY.data();
        final int[] cell = data.cell.data();
        for (int r = c.begin(), e = c.end(); r < e; r++) {
            float px = x[r];
            float py = y[r];
            sx[r] = px;
            sy[r] = py;
            cell[r] = data.cellOf(px, py);
        }
        data.countGridChunk(c.index(), c.begin(), c.end());
        if (lod != null) {
            lod.assign(x, y, band.data(), c.begin(), c.end(), observerX, observerY, periods);
        }
    }

    @Override
    public String kernelName() {
        return "grid";
    }
}
