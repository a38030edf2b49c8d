package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code waitUntil}: succeeds on the first tick its {@code condition} holds. The condition is
 * evaluated as a batch over the task's rows; it may bind to outputs of tasks in ancestor states
 * (for example a parent's claim result), which is how a child waits for its parent's work.
 */
public final class WaitUntilTask extends Task {
    private final Condition condition;

    public WaitUntilTask(NodeConfig c) {
        super(c, true);
        this.condition = c.condition("condition");
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        boolean[] holds = ctx.pushScratch();
        try {
            condition.test(ctx, rows, from, to, holds);
            for (int i = from; i < to; i++) {
                if (holds[i]) {
                    ctx.succeed(rows[i]);
                }
            }
        } finally {
            ctx.popScratch();
        }
    }
}
