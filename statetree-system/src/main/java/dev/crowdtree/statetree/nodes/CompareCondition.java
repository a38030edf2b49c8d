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
        if (right.isConstant() && left.kind() == ValueInput.FLOAT_SLOT) {
            testFloatSlot(ctx.floats(left.slot()), right.constantValue(), rows, from, to, out);
            return;
        }
        for (int i = from; i < to; i++) {
            int r = rows[i];
            out[i] = compare(left.getDouble(ctx, r), right.getDouble(ctx, r));
        }
    }

    /** The common case, a float slot against a constant, with the comparison hoisted out of the loop. */
    private void testFloatSlot(float[] a, double b, int[] rows, int from, int to, boolean[] out) {
        switch (op) {
            case 0:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] == b;
                }
                break;
            case 1:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] != b;
                }
                break;
            case 2:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] < b;
                }
                break;
            case 3:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] <= b;
                }
                break;
            case 4:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] > b;
                }
                break;
            default:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] >= b;
                }
        }
    }

    private boolean compare(double a, double b) {
        switch (op) {
            case 0:
                return a == b;
            case 1:
                return a != b;
            case 2:
                return a < b;
            case 3:
                return a <= b;
            case 4:
                return a > b;
            default:
                return a >= b;
        }
    }
}
