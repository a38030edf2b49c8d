package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code delay}: a timeout. On enter it draws the wait from
 * {@code [max(0, duration - randomDeviation), duration + randomDeviation]} (Unreal's
 * {@code UBTTask_Wait} rule, drawn from the agent's counter-based stream) and starts its timer; the
 * state succeeds when the timer runs out, whatever else is going on. It has no tick: an agent in a
 * delay-only state sleeps until then.
 *
 * <p>Per-agent data: the runtime-owned timer {@code remaining}. Allocation: none. THREADING: per the
 * Task contract.
 */
public final class DelayTask extends Task {
    private final ValueInput duration;
    private final ValueInput deviation;

    public DelayTask(NodeConfig c) {
        super(c, false);
        this.duration = c.input("duration");
        this.deviation = c.input("randomDeviation");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        float d = duration.getFloat(ctx, row);
        float dev = deviation.getFloat(ctx, row);
        float lo = Math.max(0f, d - dev);
        float hi = d + dev;
        ctx.startTimer(row, lo + (hi - lo) * ctx.random(row, stream()));
        return RunStatus.RUNNING;
    }

    @Override
    public void onTimer(NodeContext ctx, int[] rows, int from, int to) {
        for (int i = from; i < to; i++) {
            ctx.succeed(rows[i]);
        }
    }
}
