package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code succeed} and {@code fail}: complete the state with their status on the
 * {@code afterTicks}-th tick after entering (default 1), or at once from EnterState when
 * {@code onEnter} is true.
 *
 * <p>Per-agent field: {@code ticks} (int). Allocation: none.
 */
public final class FinishTask extends Task {
    private final byte status;
    private final int afterTicks;
    private final boolean onEnter;
    private final int ticksSlot;

    public FinishTask(NodeConfig c, byte status) {
        super(c, !c.bool("onEnter"));
        this.status = status;
        this.afterTicks = c.intValue("afterTicks");
        this.onEnter = c.bool("onEnter");
        this.ticksSlot = c.field("ticks");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        ctx.ints(ticksSlot)[row] = 0;
        return onEnter ? status : RunStatus.RUNNING;
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final int[] ticks = ctx.ints(ticksSlot);
        final int n = afterTicks;
        for (int i = from; i < to; i++) {
            int r = rows[i];
            if (++ticks[r] >= n) {
                ctx.complete(r, status);
            }
        }
    }
}
