package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code patrol}: walks back and forth along x between where the guard stood when the state was
 * entered and {@code length} metres east of it, at {@code speed} m/s; never completes. Per guard it
 * keeps the start point and the leg it walks in declared fields; it reads the guard's position
 * ({@code x}, {@code y}) and writes where it walks ({@code vx}, {@code vy}), which the model's
 * movement system applies after the trees.
 */
public final class PatrolTask extends Task {
    private final float length;
    private final float speed;
    private final int x;
    private final int y;
    private final int vx;
    private final int vy;
    private final int startX;
    private final int startY;
    private final int leg;

    public PatrolTask(NodeConfig c) {
        super(c, true);
        this.length = c.floatValue("length");
        this.speed = c.floatValue("speed");
        this.x = c.column(GuardNodes.X);
        this.y = c.column(GuardNodes.Y);
        this.vx = c.column(GuardNodes.VX);
        this.vy = c.column(GuardNodes.VY);
        this.startX = c.field("startX");
        this.startY = c.field("startY");
        this.leg = c.field("leg");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        ctx.floats(startX)[row] = ctx.hostFloats(x)[row];
        ctx.floats(startY)[row] = ctx.hostFloats(y)[row];
        ctx.ints(leg)[row] = 0;
        return RunStatus.RUNNING;
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] xs = ctx.hostFloats(x);
        final float[] ys = ctx.hostFloats(y);
        final float[] vxs = ctx.hostFloats(vx);
        final float[] vys = ctx.hostFloats(vy);
        final float[] sx = ctx.floats(startX);
        final float[] sy = ctx.floats(startY);
        final int[] legs = ctx.ints(leg);
        final float dt = ctx.dt();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float tx = legs[r] == 0 ? sx[r] + length : sx[r];
            if (Steps.toward(xs, ys, vxs, vys, r, tx, sy[r], speed, dt)) {
                legs[r] ^= 1; // there at the end of this tick: the other end from the next tick on
            }
        }
    }
}
