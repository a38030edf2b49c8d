package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code moveTo}: steers toward ({@code x}, {@code y}) at {@code speed} and succeeds within
 * {@code arriveDistance}. Typically bound to a parent task's outputs (a claimed slot's position).
 * Reads {@code x}, {@code y}; writes the desired velocity. Allocation: none.
 */
public final class MoveToTask extends Task {
    private final ValueInput targetX;
    private final ValueInput targetY;
    private final ValueInput speed;
    private final float arrive;
    private final int xCol;
    private final int yCol;
    private final int dvxCol;
    private final int dvyCol;

    public MoveToTask(NodeConfig c) {
        super(c, true);
        this.targetX = c.input("x");
        this.targetY = c.input("y");
        this.speed = c.input("speed");
        this.arrive = c.floatValue("arriveDistance");
        this.xCol = c.column(CrowdWorld.X);
        this.yCol = c.column(CrowdWorld.Y);
        this.dvxCol = c.column(CrowdWorld.DESIRED_VX);
        this.dvyCol = c.column(CrowdWorld.DESIRED_VY);
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] x = ctx.hostFloats(xCol);
        final float[] y = ctx.hostFloats(yCol);
        final float[] dvx = ctx.hostFloats(dvxCol);
        final float[] dvy = ctx.hostFloats(dvyCol);
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
