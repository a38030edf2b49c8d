package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * {@code perception}: once per agent per tick, the distance to the nearest active threat (minus its
 * radius, at least 0), the unit direction away from it, and {@code panic}, the share of the agent's
 * cell mates (at most {@value CrowdWorld#PANIC_MATES} looked at) that were in danger at the end of the last tick. Sends the
 * agent itself a {@code hitTag} event when a predator touches it.
 *
 * <p>Threats are read from {@link CrowdWorld#packedThreats()} (the active ones, in index order, one cache
 * line for the default nine), which is about a quarter cheaper than indexing five arrays and
 * skipping the inactive ones, with the same results. An agent looks only at the threats its block
 * lists ({@link ThreatBlocks}: those that can be within the range of some point of the block), the
 * same results again, when its range is within the lists' reach; otherwise at every threat.
 *
 * <p>Cell mates are the first rows of the agent's cell, the same for every agent of the cell, so the
 * panic is a value per cell ({@link CrowdWorld#panicOf}). On a dense grid the simulation computes
 * it once per tick for every cell ({@link CrowdWorld#cellPanic}) and an agent reads its cell's;
 * otherwise consecutive rows of one cell (the table is kept sorted by cell) share one scan.
 *
 * <p>With LOD on, it also clears the agent's desired velocity at each of its steps (evaluators run
 * before tasks), since the movement phase keeps the desired velocity of agents that do not tick
 * every step: the moving tasks set it again in the same step, the others leave it at zero.
 *
 * <p>Reads: threats, the grid and the cells' panic (the {@link CrowdWorld} external), the
 * {@code danger}, {@code snapX}, {@code snapY} and {@code cell} columns (none written in this phase); writes the
 * desired velocity (with LOD on). Outputs: {@code threatDistance}, {@code awayX}, {@code awayY}, {@code panic}.
 * Allocation: none.
 */
public final class PerceptionEvaluator extends Evaluator {
    private final External<CrowdWorld> crowd;
    private final int distSlot;
    private final int awayXSlot;
    private final int awayYSlot;
    private final int panicSlot;
    private final int hitTag;
    private final float range;
    private final int snapXCol;
    private final int snapYCol;
    private final int cellCol;
    private final int dangerCol;
    private final int dvxCol;
    private final int dvyCol;

    public PerceptionEvaluator(NodeConfig c) {
        super(c);
        this.crowd = c.external(CrowdWorld.EXTERNAL, CrowdWorld.class);
        this.distSlot = c.field("threatDistance");
        this.awayXSlot = c.field("awayX");
        this.awayYSlot = c.field("awayY");
        this.panicSlot = c.field("panic");
        this.hitTag = c.tag("hitTag");
        this.range = c.floatValue("range");
        this.snapXCol = c.column(CrowdWorld.SNAP_X);
        this.snapYCol = c.column(CrowdWorld.SNAP_Y);
        this.cellCol = c.column(CrowdWorld.CELL);
        this.dangerCol = c.column(CrowdWorld.DANGER);
        this.dvxCol = c.column(CrowdWorld.DESIRED_VX);
        this.dvyCol = c.column(CrowdWorld.DESIRED_VY);
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] dist = ctx.floats(distSlot);
        final float[] awayX = ctx.floats(awayXSlot);
        final float[] awayY = ctx.floats(awayYSlot);
        final float[] panic = ctx.floats(panicSlot);
        final CrowdWorld w = ctx.external(crowd);
        final float[] px = ctx.hostFloats(snapXCol);
        final float[] py = ctx.hostFloats(snapYCol);
        final int[] cell = ctx.hostInts(cellCol);
        final float[] cellPanic = w.cellPanic(); // null: scan the cells here
        final int[] cellStart = w.cellStart();
        final int[] cellRows = w.cellRows();
        final byte[] danger = ctx.hostBytes(dangerCol);
        int lastCell = -1;
        float lastPanic = 0f;
        final float[] tp = w.packedThreats(); // active threats in index order: x, y, radius, kind
        final ThreatBlocks blocks = w.threatBlocks();
        final int[] candBegin = blocks.begin();
        final int[] cand = blocks.list(); // per block, the threats that may matter there, in index order
        final boolean byBlock = blocks.covers(range);
        final float[] desiredVx = ctx.hostFloats(dvxCol);
        final float[] desiredVy = ctx.hostFloats(dvyCol);
        final boolean lod = w.lodOn();
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
            int b = byBlock ? blocks.blockOf(x, y) : blocks.all();
            for (int q = candBegin[b], qe = candBegin[b + 1]; q < qe; q++) {
                int k = cand[q];
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
                hit |= tp[k + 3] == CrowdWorld.PREDATOR && d < CrowdWorld.TOUCH_RADIUS + tr * 0.25f;
            }
            dist[r] = best;
            awayX[r] = bx;
            awayY[r] = by;
            int c = cell[r];
            if (cellPanic != null) {
                panic[r] = cellPanic[c];
            } else {
                if (c != lastCell) { // the table is kept sorted by cell: one scan per run of rows
                    lastPanic = CrowdWorld.panicOf(c, cellStart, cellRows, danger);
                    lastCell = c;
                }
                panic[r] = lastPanic;
            }
            if (hit) {
                ctx.sendEvent(r, hitTag, 0f, false);
            }
        }
    }
}
