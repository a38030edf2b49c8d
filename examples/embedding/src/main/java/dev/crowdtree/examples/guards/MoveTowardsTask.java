package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code moveTowards}: walks the guard at {@code speed} m/s toward the intruder (the external
 * {@value Intruder#EXTERNAL}; never completes: the intruder moves) or toward its home (the host's
 * {@code homeX} and {@code homeY} columns; succeeds on arrival). It reads the guard's position
 * ({@code x}, {@code y}) and writes where it walks ({@code vx}, {@code vy}), which the model's
 * movement system applies after the trees.
 */
public final class MoveTowardsTask extends Task {
    private final boolean home;
    private final float speed;
    private final int x;
    private final int y;
    private final int vx;
    private final int vy;
    private final int homeX;
    private final int homeY;
    private final External<Intruder> intruder;

    public MoveTowardsTask(NodeConfig c) {
        super(c, true);
        this.home = c.string("to").equals("home");
        this.speed = c.floatValue("speed");
        this.x = c.column(GuardNodes.X);
        this.y = c.column(GuardNodes.Y);
        this.vx = c.column(GuardNodes.VX);
        this.vy = c.column(GuardNodes.VY);
        this.homeX = c.column(GuardNodes.HOME_X);
        this.homeY = c.column(GuardNodes.HOME_Y);
        this.intruder = c.external(Intruder.EXTERNAL, Intruder.class);
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] xs = ctx.hostFloats(x);
        final float[] ys = ctx.hostFloats(y);
        final float[] vxs = ctx.hostFloats(vx);
        final float[] vys = ctx.hostFloats(vy);
        final float dt = ctx.dt();
        if (home) {
            final float[] hx = ctx.hostFloats(homeX);
            final float[] hy = ctx.hostFloats(homeY);
            for (int i = from; i < to; i++) {
                int r = rows[i];
                if (Steps.toward(xs, ys, vxs, vys, r, hx[r], hy[r], speed, dt)) {
                    ctx.succeed(r);
                }
            }
        } else {
            Intruder target = ctx.external(intruder); // once per batch, not per guard
            final float tx = target.x();
            final float ty = target.y();
            for (int i = from; i < to; i++) {
                Steps.toward(xs, ys, vxs, vys, rows[i], tx, ty, speed, dt);
            }
        }
    }
}
