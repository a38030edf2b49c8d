package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * {@code and} / {@code or} over {@code conditions}. An empty {@code and} is true, an empty
 * {@code or} false. Every child is evaluated for every row (conditions are pure, so short-circuit
 * would not change results); children after the first write into scratch arrays.
 */
public final class JunctionCondition extends Condition {
    private final Condition[] children;
    private final boolean isAnd;

    public JunctionCondition(NodeConfig c, boolean isAnd) {
        super(c);
        this.children = c.conditions("conditions");
        this.isAnd = isAnd;
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        if (children.length == 0) {
            for (int i = from; i < to; i++) {
                out[i] = isAnd;
            }
            return;
        }
        children[0].test(ctx, rows, from, to, out);
        if (children.length == 1) {
            return;
        }
        boolean[] tmp = ctx.pushScratch();
        try {
            for (int k = 1; k < children.length; k++) {
                children[k].test(ctx, rows, from, to, tmp);
                if (isAnd) {
                    for (int i = from; i < to; i++) {
                        out[i] &= tmp[i];
                    }
                } else {
                    for (int i = from; i < to; i++) {
                        out[i] |= tmp[i];
                    }
                }
            }
        } finally {
            ctx.popScratch();
        }
    }

    @Override
    public int depth() {
        int d = 0;
        for (Condition c : children) {
            d = Math.max(d, c.depth());
        }
        return 1 + d;
    }
}
