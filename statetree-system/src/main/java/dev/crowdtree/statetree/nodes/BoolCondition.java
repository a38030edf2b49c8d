package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ValueInput;

/** {@code bool}: true when the boolean parameter ({@code param}) or binding ({@code input}) is true. */
public final class BoolCondition extends Condition {
    private final ValueInput value;

    public BoolCondition(NodeConfig c) {
        super(c);
        this.value = c.has("param") ? c.param("param").asInput() : c.input("input");
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        for (int i = from; i < to; i++) {
            out[i] = value.getBool(ctx, rows[i]);
        }
    }
}
