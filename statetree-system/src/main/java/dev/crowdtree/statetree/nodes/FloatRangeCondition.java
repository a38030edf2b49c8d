package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ValueInput;

/** {@code floatRange}: {@code min <= value <= max} (inclusive, Millington's FloatCondition). */
public final class FloatRangeCondition extends Condition {
    private final ValueInput value;
    private final ValueInput min;
    private final ValueInput max;

    public FloatRangeCondition(NodeConfig c) {
        super(c);
        this.value = c.has("param") ? c.param("param").asInput() : c.input("input");
        this.min = c.input("min");
        this.max = c.input("max");
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        for (int i = from; i < to; i++) {
            int r = rows[i];
            double v = value.getDouble(ctx, r);
            out[i] = min.getDouble(ctx, r) <= v && v <= max.getDouble(ctx, r);
        }
    }
}
