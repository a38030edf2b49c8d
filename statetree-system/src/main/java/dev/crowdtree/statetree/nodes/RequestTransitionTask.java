package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code requestTransition}: at each tick, every agent for which {@code when} holds (every agent
 * without it) requests a transition to state {@code to} at {@code priority}
 * ({@link NodeContext#requestTransition}; docs/SEMANTICS.md, rules O1-O4). It never completes its
 * state; the condition is evaluated as a batch over the task's rows.
 */
public final class RequestTransitionTask extends Task {
    private final int target;
    private final int priority;
    private final Condition when;

    public RequestTransitionTask(NodeConfig c) {
        super(c, true);
        this.target = c.state("to");
        this.priority = NodeContext.PRIORITIES.indexOf(c.string("priority"));
        this.when = c.has("when") ? c.condition("when") : null;
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        if (when == null) {
            for (int i = from; i < to; i++) {
                ctx.requestTransition(rows[i], target, priority);
            }
            return;
        }
        boolean[] holds = ctx.pushScratch();
        try {
            when.test(ctx, rows, from, to, holds);
            for (int i = from; i < to; i++) {
                if (holds[i]) {
                    ctx.requestTransition(rows[i], target, priority);
                }
            }
        } finally {
            ctx.popScratch();
        }
    }
}
