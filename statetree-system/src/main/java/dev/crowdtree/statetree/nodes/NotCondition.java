package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/** {@code not}: negates {@code condition}. */
public final class NotCondition extends Condition {
    private final Condition inner;

    public NotCondition(NodeConfig c) {
        super(c);
        this.inner = c.condition("condition");
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        inner.test(ctx, rows, from, to, out);
        for (int i = from; i < to; i++) {
            out[i] = !out[i];
        }
    }

    @Override
    public int depth() {
        return 1 + inner.depth();
    }
}
