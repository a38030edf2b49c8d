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
        if (c.has("param") && c.param("param").enumValues() != null && op > 1) {
            throw new IllegalArgumentException("enum parameter '" + c.param("param").name()
                    + "' compares by value name with == or != only, not " + c.string("op"));
        }
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

    /**
     * The common case, a float slot against a constant, with the comparison hoisted out of the loop
     * and done in float: for a float {@code a} and a double {@code b}, with {@code lo} the largest
     * float {@code <= b} and {@code hi} the smallest float {@code >= b} (equal when b is a float),
     * {@code a > b} is {@code a > lo}, {@code a >= b} is {@code a >= hi}, {@code a < b} is
     * {@code a < hi}, {@code a <= b} is {@code a <= lo}, and {@code a == b} needs b to be a float:
     * no float lies strictly between lo and hi. So the results are those of the double comparison.
     */
    private void testFloatSlot(float[] a, double b, int[] rows, int from, int to, boolean[] out) {
        if (b != b) {
            for (int i = from; i < to; i++) {
                out[i] = compare(a[rows[i]], b); // NaN constant: only != holds
            }
            return;
        }
        float f = (float) b;
        boolean exact = (double) f == b;
        final float lo = exact || (double) f < b ? f : Math.nextDown(f);
        final float hi = exact || (double) f > b ? f : Math.nextUp(f);
        switch (op) {
            case 0:
                for (int i = from; i < to; i++) {
                    out[i] = exact && a[rows[i]] == f;
                }
                break;
            case 1:
                for (int i = from; i < to; i++) {
                    out[i] = !exact || a[rows[i]] != f;
                }
                break;
            case 2:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] < hi;
                }
                break;
            case 3:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] <= lo;
                }
                break;
            case 4:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] > lo;
                }
                break;
            default:
                for (int i = from; i < to; i++) {
                    out[i] = a[rows[i]] >= hi;
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
