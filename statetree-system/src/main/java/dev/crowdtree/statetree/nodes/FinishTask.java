package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code succeed} and {@code fail}: complete the state with their status on the
 * {@code afterTicks}-th tick after entering (default 1), or at once from EnterState when
 * {@code onEnter} is true. Counted with a TICKS timer, so the agent sleeps in between.
 *
 * <p>Per-agent data: the runtime-owned timer {@code ticks}. Allocation: none.
 */
public final class FinishTask extends Task {
    private final byte status;
    private final int afterTicks;
    private final boolean onEnter;

    public FinishTask(NodeConfig c, byte status) {
        super(c, false);
        this.status = status;
        this.afterTicks = c.intValue("afterTicks");
        this.onEnter = c.bool("onEnter");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        if (onEnter) {
            return status;
        }
        ctx.startTickTimer(row, afterTicks);
        return RunStatus.RUNNING;
    }

    @Override
    public void onTimer(NodeContext ctx, int[] rows, int from, int to) {
        for (int i = from; i < to; i++) {
            ctx.complete(rows[i], status);
        }
    }
}
