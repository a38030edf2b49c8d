package dev.crowdtree.demo.nodes;

import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code flee}: runs along ({@code awayX}, {@code awayY}) (bound to the perception evaluator) at
 * {@code speed}; with no direction (no threat in range) keeps its current heading. Never completes
 * on its own: pair it with a {@code delay}. Allocation: none.
 */
public final class FleeTask extends Task {
    private final CrowdData data;
    private final ValueInput speed;
    private final ValueInput awayX;
    private final ValueInput awayY;

    public FleeTask(NodeConfig c, CrowdData data) {
        super(c, true);
        this.data = data;
        this.speed = c.input("speed");
        this.awayX = c.input("awayX");
        this.awayY = c.input("awayY");
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] vx = data.vx.data();
        final float[] vy = data.vy.data();
        final float[] dvx = data.desiredVx.data();
        final float[] dvy = data.desiredVy.data();
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
