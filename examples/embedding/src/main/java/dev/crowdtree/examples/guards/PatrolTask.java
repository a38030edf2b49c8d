package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code patrol}: walks back and forth along x between where the guard stood when the state was
 * entered and {@code length} metres east of it, at {@code speed} m/s; never completes. Per guard it
 * keeps the start point and the leg it walks in declared fields; it writes the host's {@code x} and
 * {@code y} columns.
 */
public final class PatrolTask extends Task {
    private final float length;
    private final float speed;
    private final int x;
    private final int y;
    private final int startX;
    private final int startY;
    private final int leg;

    public PatrolTask(NodeConfig c) {
        super(c, true);
        this.length = c.floatValue("length");
        this.speed = c.floatValue("speed");
        this.x = c.column(GuardNodes.X);
        this.y = c.column(GuardNodes.Y);
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
        final float[] sx = ctx.floats(startX);
        final float[] sy = ctx.floats(startY);
        final int[] legs = ctx.ints(leg);
        final float step = speed * ctx.dt();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float tx = legs[r] == 0 ? sx[r] + length : sx[r];
            if (Steps.toward(xs, ys, r, tx, sy[r], step)) {
                legs[r] ^= 1;
            }
        }
    }
}
