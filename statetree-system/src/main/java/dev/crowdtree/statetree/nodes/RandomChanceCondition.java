package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ValueInput;

/**
 * {@code randomChance}: true with {@code probability}. The draw is keyed by (seed, agent, tick,
 * this node), so asking twice in one tick gives the same answer and the result does not depend on
 * which worker evaluates it.
 */
public final class RandomChanceCondition extends Condition {
    private final ValueInput probability;

    public RandomChanceCondition(NodeConfig c) {
        super(c);
        this.probability = c.input("probability");
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        final int s = stream();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            out[i] = ctx.random(r, s) < probability.getFloat(ctx, r);
        }
    }
}
