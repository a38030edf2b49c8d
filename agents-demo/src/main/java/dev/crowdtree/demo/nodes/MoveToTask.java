package dev.crowdtree.demo.nodes;

import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code moveTo}: steers toward ({@code x}, {@code y}) at {@code speed} and succeeds within
 * {@code arriveDistance}. Typically bound to a parent task's outputs (a claimed slot's position).
 * Allocation: none.
 */
public final class MoveToTask extends Task {
    private final CrowdData data;
    private final ValueInput targetX;
    private final ValueInput targetY;
    private final ValueInput speed;
    private final float arrive;

    public MoveToTask(NodeConfig c, CrowdData data) {
        super(c, true);
        this.data = data;
        this.targetX = c.input("x");
        this.targetY = c.input("y");
        this.speed = c.input("speed");
        this.arrive = c.floatValue("arriveDistance");
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] x = data.x.data();
        final float[] y = data.y.data();
        final float[] dvx = data.desiredVx.data();
        final float[] dvy = data.desiredVy.data();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float d = Steering.toward(targetX.getFloat(ctx, r) - x[r], targetY.getFloat(ctx, r) - y[r],
                    speed.getFloat(ctx, r), dvx, dvy, r);
            if (d < arrive) {
                ctx.succeed(r);
            }
        }
    }
}
