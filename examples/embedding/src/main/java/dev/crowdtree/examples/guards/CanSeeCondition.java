package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * {@code canSee}: true for the guards whose host column {@code distance} (the host writes each
 * guard's distance to the intruder before every tick) is at most {@code range} metres.
 */
public final class CanSeeCondition extends Condition {
    private final float range;
    private final int distance;

    public CanSeeCondition(NodeConfig c) {
        super(c);
        this.range = c.floatValue("range");
        this.distance = c.column(GuardNodes.DISTANCE);
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        final float[] d = ctx.hostFloats(distance);
        final float r = range;
        for (int i = from; i < to; i++) {
            out[i] = d[rows[i]] <= r;
        }
    }
}
