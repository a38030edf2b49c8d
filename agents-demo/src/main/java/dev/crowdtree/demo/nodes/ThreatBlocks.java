package dev.crowdtree.demo.nodes;

/**
 * Per-block candidate lists of the active threats, for perception: the world is cut into
 * {@value #SIDE} x {@value #SIDE} square blocks, and each block lists, in index order, the threats
 * that can be within the perception reach (given to the constructor; {@link #covers}) of some point
 * of it (the distance from the threat's centre to the block, less its radius, below the reach plus
 * a metre of margin). An agent looks at its
 * block's list instead of every threat: a threat left out is farther than the reach plus its radius
 * from the agent, so the full scan would have passed over it too (its squared distance is at least
 * {@code (best + radius)^2} for any {@code best <= reach}), and the results are the same bits.
 *
 * <p>The list of block {@link #all()} holds every active threat, for a perception range beyond the
 * reach. Built by the simulation thread when the threats change ({@link #build}), read-only during
 * the parallel phases. Allocation: none after construction.
 */
public final class ThreatBlocks {
    /** Blocks per side of the world. */
    public static final int SIDE = 32;
    /** The perception range the lists are built for: the {@code perception} node's default range. */
    public static final float DEFAULT_REACH = 500f;
    private static final float MARGIN = 1f;

    private final float worldSize;
    private final float blockSize;
    private final float inverseBlockSize;
    private final float reach;
    /** Block b's threats are {@code list[begin[b] .. begin[b + 1])}, as offsets into the packed threats (4 per threat). */
    private final int[] begin = new int[SIDE * SIDE + 2];
    private final int[] list;

    /** Lists for up to {@code maxThreats} threats in a world of side {@code worldSize}, for perception within {@code reach}. */
    public ThreatBlocks(float worldSize, int maxThreats, float reach) {
        this.worldSize = worldSize;
        this.blockSize = worldSize / SIDE;
        this.inverseBlockSize = SIDE / worldSize;
        this.reach = reach;
        this.list = new int[(SIDE * SIDE + 1) * maxThreats];
    }

    /** No threats at all. */
    public static ThreatBlocks none(float worldSize) {
        return new ThreatBlocks(worldSize, 0, Float.MAX_VALUE);
    }

    /** Whether the blocks' lists hold every threat that matters within {@code range}. */
    public boolean covers(float range) {
        return range <= reach;
    }

    /** The block whose list holds every active threat. */
    public int all() {
        return SIDE * SIDE;
    }

    /** The block of a point, or {@link #all()} for a point outside {@code [0, worldSize)^2} (or NaN). */
    public int blockOf(float x, float y) {
        float fx = x * inverseBlockSize;
        float fy = y * inverseBlockSize;
        if (fx >= 0f && fx < SIDE && fy >= 0f && fy < SIDE) {
            return (int) fy * SIDE + (int) fx;
        }
        return SIDE * SIDE;
    }

    public int[] begin() {
        return begin;
    }

    public int[] list() {
        return list;
    }

    /** Rebuilds the lists from the packed active threats ({@code x, y, radius, kind} each). Simulation thread. */
    public void build(float[] packed, int active) {
        int n = 0;
        for (int b = 0; b < SIDE * SIDE; b++) {
            begin[b] = n;
            double x0 = (b % SIDE) * (double) blockSize;
            double y0 = (b / SIDE) * (double) blockSize;
            for (int j = 0; j < active; j++) {
                double tx = packed[4 * j];
                double ty = packed[4 * j + 1];
                double dx = Math.max(0, Math.max(x0 - tx, tx - (x0 + blockSize)));
                double dy = Math.max(0, Math.max(y0 - ty, ty - (y0 + blockSize)));
                double limit = (double) reach + packed[4 * j + 2] + MARGIN;
                // NaN or infinite threat positions are kept: the scan decides about them as before
                if (!(dx * dx + dy * dy >= limit * limit)) {
                    list[n++] = 4 * j;
                }
            }
        }
        begin[SIDE * SIDE] = n;
        for (int j = 0; j < active; j++) {
            list[n++] = 4 * j;
        }
        begin[SIDE * SIDE + 1] = n;
    }

    @Override
    public String toString() {
        return "ThreatBlocks[" + SIDE + "x" + SIDE + " of " + blockSize + " m in " + worldSize + " m, reach " + reach + "]";
    }
}
