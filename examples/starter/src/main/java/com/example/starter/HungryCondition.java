package com.example.starter;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/** {@code hungry}: true for the villagers whose {@code hunger} is above {@code above}. */
public final class HungryCondition extends Condition {
    private final float above;
    private final int hunger;

    public HungryCondition(NodeConfig c) {
        super(c);
        this.above = c.floatValue("above");
        this.hunger = c.column(VillagerNodes.HUNGER);
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        final float[] h = ctx.hostFloats(hunger);
        final float limit = above;
        for (int i = from; i < to; i++) {
            out[i] = h[rows[i]] > limit;
        }
    }
}
