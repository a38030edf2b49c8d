package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code wander}: on enter picks a random point within {@code radius} of the agent (inside the
 * world); each tick steers toward it at {@code speed}; succeeds on arrival.
 * Fields: {@code targetX}, {@code targetY}. Reads {@code x}, {@code y}; writes the desired
 * velocity. Allocation: none.
 */
public final class WanderTask extends Task {
    private final External<CrowdWorld> crowd;
    private final float radius;
    private final ValueInput speed;
    private final int txSlot;
    private final int tySlot;
    private final int xCol;
    private final int yCol;
    private final int dvxCol;
    private final int dvyCol;

    public WanderTask(NodeConfig c) {
        super(c, true);
        this.crowd = c.external(CrowdWorld.EXTERNAL, CrowdWorld.class);
        this.radius = c.floatValue("radius");
        this.speed = c.input("speed");
        this.txSlot = c.field("targetX");
        this.tySlot = c.field("targetY");
        this.xCol = c.column(CrowdWorld.X);
        this.yCol = c.column(CrowdWorld.Y);
        this.dvxCol = c.column(CrowdWorld.DESIRED_VX);
        this.dvyCol = c.column(CrowdWorld.DESIRED_VY);
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        float angle = ctx.random(row, stream(), 0) * (float) (2 * Math.PI);
        float dist = radius * (0.3f + 0.7f * ctx.random(row, stream(), 1));
        float lo = 5f;
        float hi = ctx.external(crowd).worldSize() - 5f;
        ctx.floats(txSlot)[row] = Math.max(lo, Math.min(hi, ctx.hostFloats(xCol)[row] + dist * (float) Math.cos(angle)));
        ctx.floats(tySlot)[row] = Math.max(lo, Math.min(hi, ctx.hostFloats(yCol)[row] + dist * (float) Math.sin(angle)));
        return RunStatus.RUNNING;
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] tx = ctx.floats(txSlot);
        final float[] ty = ctx.floats(tySlot);
        final float[] x = ctx.hostFloats(xCol);
        final float[] y = ctx.hostFloats(yCol);
        final float[] dvx = ctx.hostFloats(dvxCol);
        final float[] dvy = ctx.hostFloats(dvyCol);
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float d = Steering.toward(tx[r] - x[r], ty[r] - y[r], speed.getFloat(ctx, r), dvx, dvy, r);
            if (d < 1f) {
                ctx.succeed(r);
            }
        }
    }
}
