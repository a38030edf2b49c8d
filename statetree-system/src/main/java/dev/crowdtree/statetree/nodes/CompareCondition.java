package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ValueInput;

import java.util.Arrays;

/**
 * {@code compare}: {@code left op value} with op one of {@code == != < <= > >=}, on numbers (int
 * and float compared as doubles). The left side is {@code param} (a parameter name) or
 * {@code input} (any numeric binding).
 */
public final class CompareCondition extends Condition {
    static final String[] OPS = {"==", "!=", "<", "<=", ">", ">="};

    private final ValueInput left;
    private final ValueInput right;
    private final int op;

    public CompareCondition(NodeConfig c) {
        super(c);
        this.left = c.has("param") ? c.param("param").asInput() : c.input("input");
        this.right = c.input("value");
        this.op = Arrays.asList(OPS).indexOf(c.string("op"));
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        for (int i = from; i < to; i++) {
            int r = rows[i];
            double a = left.getDouble(ctx, r);
            double b = right.getDouble(ctx, r);
            boolean v;
            switch (op) {
                case 0:
                    v = a == b;
                    break;
                case 1:
                    v = a != b;
                    break;
                case 2:
                    v = a < b;
                    break;
                case 3:
                    v = a <= b;
                    break;
                case 4:
                    v = a > b;
                    break;
                default:
                    v = a >= b;
            }
            out[i] = v;
        }
    }
}
