package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * {@code random}: output {@code value}, a fresh uniform number in [0, 1) per agent per tick. Its
 * value depends only on agent and tick, so it is ticked only for awake agents
 * ({@link Evaluator.Schedule#WHEN_AWAKE}).
 */
public final class RandomEvaluator extends Evaluator {
    private final int valueSlot;

    public RandomEvaluator(NodeConfig c) {
        super(c, Schedule.WHEN_AWAKE);
        this.valueSlot = c.field("value");
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] v = ctx.floats(valueSlot);
        final int s = stream();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            v[r] = ctx.random(r, s);
        }
    }
}
