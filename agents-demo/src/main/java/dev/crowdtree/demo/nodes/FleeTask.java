package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code flee}: runs along ({@code awayX}, {@code awayY}) (bound to the perception evaluator) at
 * {@code speed}; with no direction (no threat in range) keeps its current heading. Never completes
 * on its own: pair it with a {@code delay}. Reads {@code vx}, {@code vy}; writes the desired
 * velocity. Allocation: none.
 */
public final class FleeTask extends Task {
    private final ValueInput speed;
    private final ValueInput awayX;
    private final ValueInput awayY;
    private final int vxCol;
    private final int vyCol;
    private final int dvxCol;
    private final int dvyCol;

    public FleeTask(NodeConfig c) {
        super(c, true);
        this.speed = c.input("speed");
        this.awayX = c.input("awayX");
        this.awayY = c.input("awayY");
        this.vxCol = c.column(CrowdWorld.VX);
        this.vyCol = c.column(CrowdWorld.VY);
        this.dvxCol = c.column(CrowdWorld.DESIRED_VX);
        this.dvyCol = c.column(CrowdWorld.DESIRED_VY);
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] vx = ctx.hostFloats(vxCol);
        final float[] vy = ctx.hostFloats(vyCol);
        final float[] dvx = ctx.hostFloats(dvxCol);
        final float[] dvy = ctx.hostFloats(dvyCol);
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float ax = awayX.getFloat(ctx, r);
            float ay = awayY.getFloat(ctx, r);
            if (ax == 0f && ay == 0f) {
                ax = vx[r];
                ay = vy[r];
            }
            float d = (float) Math.sqrt(ax * ax + ay * ay);
            float s = d > 1e-4f ? speed.getFloat(ctx, r) / d : 0f;
            dvx[r] = ax * s;
            dvy[r] = ay * s;
        }
    }
}
