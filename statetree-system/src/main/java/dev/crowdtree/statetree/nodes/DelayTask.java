package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code delay}: a timeout. On enter it draws the wait from
 * {@code [max(0, duration - randomDeviation), duration + randomDeviation]} (Unreal's
 * {@code UBTTask_Wait} rule, drawn from the agent's counter-based stream); each tick subtracts dt
 * and the state succeeds once the remaining time is {@code <= 0}, whatever else is going on.
 *
 * <p>Per-agent field: {@code remaining} (float). Allocation: none. THREADING: per the Task contract.
 */
public final class DelayTask extends Task {
    private final ValueInput duration;
    private final ValueInput deviation;
    private final int remainingSlot;

    public DelayTask(NodeConfig c) {
        super(c, true);
        this.duration = c.input("duration");
        this.deviation = c.input("randomDeviation");
        this.remainingSlot = c.field("remaining");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        float d = duration.getFloat(ctx, row);
        float dev = deviation.getFloat(ctx, row);
        float lo = Math.max(0f, d - dev);
        float hi = d + dev;
        ctx.floats(remainingSlot)[row] = lo + (hi - lo) * ctx.random(row, stream());
        return RunStatus.RUNNING;
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] remaining = ctx.floats(remainingSlot);
        final float dt = ctx.dt();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float left = remaining[r] - dt;
            remaining[r] = left;
            if (left <= 0f) {
                ctx.succeed(r);
            }
        }
    }
}
