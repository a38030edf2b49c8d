package dev.crowdtree.demo.sim;

import dev.crowdtree.core.random.CounterRng;

import java.util.Arrays;

/**
 * Smart objects (benches, feeding spots) with a limited number of slots. Agents find a candidate
 * with {@link #findFree} during the parallel tree phase (reading {@code used}, which only changes at
 * the sync point) and post claim requests; the simulation thread grants or rejects them in chunk
 * order at the sync point (first come, first served), so the outcome does not depend on the number
 * of workers. Objects are indexed in a coarse grid for the nearest-free search.
 */
public final class SmartObjects {
    private static final float GRID_CELL = 50f;

    final int count;
    public final float[] x;
    public final float[] y;
    public final int slots;
    /** Slots in use per object; written only at the sync point. */
    public final int[] used;
    /** Region mode: the objects this simulation owns (null: all); see {@link #ownOnly}. */
    private boolean[] owned;
    private final int side;
    private final int[] cellStart;
    private final int[] cellObjects;

    SmartObjects(int count, int slots, float worldSize, long seed) {
        this.count = count;
        this.slots = slots;
        x = new float[count];
        y = new float[count];
        used = new int[count];
        for (int i = 0; i < count; i++) {
            x[i] = CounterRng.range(20, worldSize - 20, seed, -100_000 - i, 0, 1, 0);
            y[i] = CounterRng.range(20, worldSize - 20, seed, -100_000 - i, 0, 1, 1);
        }
        side = Math.max(1, (int) Math.ceil(worldSize / GRID_CELL));
        cellStart = new int[side * side + 1];
        cellObjects = new int[count];
        int[] cell = new int[count];
        for (int i = 0; i < count; i++) {
            cell[i] = cellOf(x[i], y[i]);
            cellStart[cell[i] + 1]++;
        }
        for (int c = 1; c < cellStart.length; c++) {
            cellStart[c] += cellStart[c - 1];
        }
        int[] cursor = Arrays.copyOf(cellStart, cellStart.length);
        for (int i = 0; i < count; i++) {
            cellObjects[cursor[cell[i]]++] = i;
        }
    }

    public int count() {
        return count;
    }

    private int cellOf(float px, float py) {
        int cx = Math.max(0, Math.min(side - 1, (int) (px / GRID_CELL)));
        int cy = Math.max(0, Math.min(side - 1, (int) (py / GRID_CELL)));
        return cy * side + cx;
    }

    /**
     * The nearest object within {@code radius} of (px, py) that had a free slot at the last sync
     * point, or -1. Ties go to the lower object index. Allocation: none.
     */
    public int findFree(float px, float py, float radius) {
        int cx0 = Math.max(0, (int) ((px - radius) / GRID_CELL));
        int cx1 = Math.min(side - 1, (int) ((px + radius) / GRID_CELL));
        int cy0 = Math.max(0, (int) ((py - radius) / GRID_CELL));
        int cy1 = Math.min(side - 1, (int) ((py + radius) / GRID_CELL));
        int best = -1;
        float bestD2 = radius * radius;
        for (int cy = cy0; cy <= cy1; cy++) {
            for (int cx = cx0; cx <= cx1; cx++) {
                int c = cy * side + cx;
                for (int k = cellStart[c]; k < cellStart[c + 1]; k++) {
                    int o = cellObjects[k];
                    if (used[o] >= slots) {
                        continue;
                    }
                    float dx = x[o] - px;
                    float dy = y[o] - py;
                    float d2 = dx * dx + dy * dy;
                    if (d2 < bestD2 || (d2 == bestD2 && best >= 0 && o < best)) {
                        bestD2 = d2;
                        best = o;
                    }
                }
            }
        }
        return best;
    }

    /**
     * Region mode: only the objects {@code owned} marks are this simulation's (the objects standing in
     * its region); the others are shown as full, so {@link #findFree} never offers them, and their
     * slots are counted by the region that owns them.
     */
    void ownOnly(boolean[] owned) {
        this.owned = owned;
        for (int o = 0; o < count; o++) {
            if (!owned[o]) {
                used[o] = slots;
            }
        }
    }

    /** Whether object {@code o} is this simulation's (always, outside region mode). */
    boolean owns(int o) {
        return owned == null || owned[o];
    }

    /** Total slots in use (of the owned objects, in region mode). */
    public int usedSlots() {
        int u = 0;
        for (int o = 0; o < count; o++) {
            u += owns(o) ? used[o] : 0;
        }
        return u;
    }

    long contentHash() {
        return Arrays.hashCode(used);
    }

    /**
     * A hash of the owned objects' slots that does not depend on which simulation owns which: a sum of
     * one mix per object, so the regions' sums add up to the same value however the objects are split.
     */
    long ownedHash() {
        long h = 0;
        for (int o = 0; o < count; o++) {
            if (owns(o)) {
                long z = (o * 0x9E3779B97F4A7C15L) ^ used[o];
                z = (z ^ (z >>> 31)) * 0xBF58476D1CE4E5B9L;
                h += z ^ (z >>> 29);
            }
        }
        return h;
    }
}
