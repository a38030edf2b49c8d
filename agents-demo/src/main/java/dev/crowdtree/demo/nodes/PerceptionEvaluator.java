package dev.crowdtree.demo.nodes;

import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.demo.sim.Threats;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * {@code perception}: once per agent per tick, the distance to the nearest active threat (minus its
 * radius, at least 0), the unit direction away from it, and {@code panic}, the share of the agent's
 * cell mates (at most 16 looked at) that were in danger at the end of the last tick. Sends the
 * agent itself a {@code hitTag} event when a predator touches it.
 *
 * <p>Threats are read from {@link Threats#packed()} (the active ones, in index order, one cache
 * line for the default nine), which is about a quarter cheaper than indexing five arrays and
 * skipping the inactive ones, with the same results.
 *
 * <p>Cell mates are the first rows of the agent's cell, the same for every agent of the cell, so
 * consecutive rows of one cell (the table is kept sorted by cell) reuse the panic value of the
 * first: the same result with one scan per run of rows instead of one per agent.
 *
 * <p>With LOD on, it also clears the agent's desired velocity at each of its steps (evaluators run
 * before tasks), since the movement phase keeps the desired velocity of agents that do not tick
 * every step: the moving tasks set it again in the same step, the others leave it at zero.
 *
 * <p>Reads: threats, the grid, last tick's danger flags and the position snapshot (none written in
 * this phase). Outputs: {@code threatDistance}, {@code awayX}, {@code awayY}, {@code panic}.
 * Allocation: none.
 */
public final class PerceptionEvaluator extends Evaluator {
    private static final int MAX_MATES = 16;

    private final CrowdData data;
    private final int distSlot;
    private final int awayXSlot;
    private final int awayYSlot;
    private final int panicSlot;
    private final int hitTag;
    private final float range;

    public PerceptionEvaluator(NodeConfig c, CrowdData data) {
        super(c);
        this.data = data;
        this.distSlot = c.field("threatDistance");
        this.awayXSlot = c.field("awayX");
        this.awayYSlot = c.field("awayY");
        this.panicSlot = c.field("panic");
        this.hitTag = c.tag("hitTag");
        this.range = c.floatValue("range");
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] dist = ctx.floats(distSlot);
        final float[] awayX = ctx.floats(awayXSlot);
        final float[] awayY = ctx.floats(awayYSlot);
        final float[] panic = ctx.floats(panicSlot);
        final float[] px = data.snapX.data();
        final float[] py = data.snapY.data();
        final int[] cell = data.cell.data();
        final byte[] danger = data.danger.data();
        final int[] cellStart = data.cellStart();
        final int[] cellRows = data.cellRows();
        final Threats th = data.threats;
        final float[] tp = th.packed(); // active threats in index order: x, y, radius, kind
        final int end4 = 4 * th.activeCount();
        final float[] desiredVx = data.desiredVx.data();
        final float[] desiredVy = data.desiredVy.data();
        final boolean lod = data.lodBand() != null;
        int lastCell = -1;
        float lastPanic = 0f;
        for (int i = from; i < to; i++) {
            int r = rows[i];
            if (lod) {
                desiredVx[r] = 0f;
                desiredVy[r] = 0f;
            }
            float x = px[r];
            float y = py[r];
            float best = range;
            float bx = 0f;
            float by = 0f;
            boolean hit = false;
            for (int k = 0; k < end4; k += 4) {
                float tr = tp[k + 2];
                float dx = x - tp[k];
                float dy = y - tp[k + 1];
                float d2 = dx * dx + dy * dy;
                float reach = best + tr;
                if (d2 >= reach * reach) {
                    continue; // farther than the best so far: no square root needed
                }
                float d = (float) Math.sqrt(d2);
                float edge = Math.max(0f, d - tr);
                if (edge < best) {
                    best = edge;
                    float inv = d > 1e-4f ? 1f / d : 0f;
                    bx = dx * inv;
                    by = dy * inv;
                }
                hit |= tp[k + 3] == Threats.PREDATOR && d < Threats.TOUCH_RADIUS + tr * 0.25f;
            }
            dist[r] = best;
            awayX[r] = bx;
            awayY[r] = by;
            int c = cell[r];
            if (c != lastCell) {
                int begin = cellStart[c];
                int end = Math.min(cellStart[c + 1], begin + MAX_MATES);
                int scared = 0;
                for (int k = begin; k < end; k++) {
                    scared += danger[cellRows[k]];
                }
                lastPanic = end > begin ? (float) scared / (end - begin) : 0f;
                lastCell = c;
            }
            panic[r] = lastPanic;
            if (hit) {
                ctx.sendEvent(r, hitTag, 0f, false);
            }
        }
    }
}
