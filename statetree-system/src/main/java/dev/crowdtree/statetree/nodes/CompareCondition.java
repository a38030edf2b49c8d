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
    /**
     * A float slot against a constant that is not NaN ({@link #testFloatSlot}): the constant's float
     * neighbours and the range of {@link #orderKey order keys} that pass, computed once.
     */
    private final boolean floatSlotVsConstant;
    private final boolean exact;
    private final float f;
    private final float lo;
    private final float hi;
    private final long first;
    private final long width;
    private final int flip;

    public CompareCondition(NodeConfig c) {
        super(c);
        this.left = c.has("param") ? c.param("param").asInput() : c.input("input");
        this.right = c.input("value");
        this.op = Arrays.asList(OPS).indexOf(c.string("op"));
        if (c.has("param") && c.param("param").enumValues() != null && op > 1) {
            throw new IllegalArgumentException("enum parameter '" + c.param("param").name()
                    + "' compares by value name with == or != only, not " + c.string("op"));
        }
        double b = right.isConstant() ? right.constantValue() : Double.NaN;
        this.floatSlotVsConstant = left.kind() == ValueInput.FLOAT_SLOT && right.isConstant() && b == b;
        this.f = (float) b;
        this.exact = (double) f == b;
        this.lo = exact || (double) f < b ? f : Math.nextDown(f);
        this.hi = exact || (double) f > b ? f : Math.nextUp(f);
        switch (op) {
            case 0:
            case 1: // == and != (its complement): the keys of f (both zeros for a zero), or none when b is no float
                first = lowKey(f);
                width = exact ? highKey(f) - lowKey(f) + 1 : 0;
                break;
            case 2: // a < hi: [-inf, hi)
                first = KEY_NEGATIVE_INFINITY;
                width = lowKey(hi) - KEY_NEGATIVE_INFINITY;
                break;
            case 3: // a <= lo: [-inf, lo]
                first = KEY_NEGATIVE_INFINITY;
                width = highKey(lo) - KEY_NEGATIVE_INFINITY + 1;
                break;
            case 4: // a > lo: (lo, +inf]
                first = highKey(lo) + 1;
                width = KEY_POSITIVE_INFINITY - highKey(lo);
                break;
            default: // a >= hi: [hi, +inf]
                first = lowKey(hi);
                width = KEY_POSITIVE_INFINITY - lowKey(hi) + 1;
        }
        this.flip = op == 1 ? 1 : 0;
    }

    @Override
    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
        if (floatSlotVsConstant) {
            testFloatSlot(ctx.floats(left.slot()), rows, from, to, out);
            return;
        }
        if (right.isConstant() && left.kind() == ValueInput.FLOAT_SLOT) {
            final float[] a = ctx.floats(left.slot());
            for (int i = from; i < to; i++) {
                out[i] = compare(a[rows[i]], Double.NaN); // NaN constant: only != holds
            }
            return;
        }
        if (left.kind() == ValueInput.FLOAT_SLOT && right.kind() == ValueInput.FLOAT_SLOT) {
            testFloatSlots(ctx.floats(left.slot()), ctx.floats(right.slot()), rows, from, to, out);
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
     *
     * <p>When the results are mixed (a condition that holds for a quarter of the agents, in no
     * order), a branch per agent mispredicts for about a third of them and costs several times the
     * test; then each comparison is a range of {@link #orderKey order keys},
     * {@code [first, first + width)}, tested without a branch. A sample of the first
     * {@value #SAMPLE} rows decides: when at most one of them differs from the others, the plain
     * comparison runs (its branch predicts well and it is cheaper). Both give the same results.
     */
    private void testFloatSlot(float[] a, int[] rows, int from, int to, boolean[] out) {
        final long first = this.first;
        final long width = this.width;
        final int flip = this.flip;
        final boolean exact = this.exact;
        final float f = this.f;
        final float lo = this.lo;
        final float hi = this.hi;
        // A sample first: when (almost) none or all of it passes, the rest is likely the same and a
        // plain comparison's branch predicts well, which is cheaper than the branch-free test.
        final int sampleEnd = Math.min(to, from + SAMPLE);
        int passed = 0;
        for (int i = from; i < sampleEnd; i++) {
            int in = in(a[rows[i]], first, width, flip);
            out[i] = in != 0;
            passed += in;
        }
        if (mixed(passed, sampleEnd - from)) {
            for (int i = sampleEnd; i < to; i++) {
                int in = in(a[rows[i]], first, width, flip);
                out[i] = in != 0;
            }
            return;
        }
        switch (op) {
            case 0:
                for (int i = sampleEnd; i < to; i++) {
                    out[i] = exact && a[rows[i]] == f;
                }
                break;
            case 1:
                for (int i = sampleEnd; i < to; i++) {
                    out[i] = !exact || a[rows[i]] != f;
                }
                break;
            case 2:
                for (int i = sampleEnd; i < to; i++) {
                    out[i] = a[rows[i]] < hi;
                }
                break;
            case 3:
                for (int i = sampleEnd; i < to; i++) {
                    out[i] = a[rows[i]] <= lo;
                }
                break;
            case 4:
                for (int i = sampleEnd; i < to; i++) {
                    out[i] = a[rows[i]] > lo;
                }
                break;
            default:
                for (int i = sampleEnd; i < to; i++) {
                    out[i] = a[rows[i]] >= hi;
                }
        }
    }

    /** 1 when the {@link #orderKey} of {@code x} lies in {@code [first, first + width)} (unsigned, so NaN keys fall outside), xor {@code flip}. */
    private static int in(float x, long first, long width, int flip) {
        return ((int) ((((orderKey(x) - first) & 0xFFFF_FFFFL) - width) >>> 63)) ^ flip;
    }

    /**
     * For a float slot against a constant, {@link #testFloatSlot}'s test and collecting the passes
     * in one loop: a sample of {@value #SAMPLE} rows, tested without a branch, chooses how the rest
     * is. When at most 2 of the sample pass (a threshold that few agents cross in a tick), a plain
     * comparison with a branch that predicts well, writing nothing for the agents that do not
     * pass; else the branch-free test, each position written and the count moved by its result.
     */
    @Override
    public int select(NodeContext ctx, int[] rows, int from, int to, boolean[] scratch, int[] passed) {
        if (!floatSlotVsConstant) {
            return super.select(ctx, rows, from, to, scratch, passed);
        }
        final float[] a = ctx.floats(left.slot());
        final long first = this.first;
        final long width = this.width;
        final int flip = this.flip;
        final int sampleEnd = Math.min(to, from + SAMPLE);
        int k = 0;
        for (int i = from; i < sampleEnd; i++) {
            passed[k] = i;
            k += in(a[rows[i]], first, width, flip);
        }
        if (!few(k)) {
            for (int i = sampleEnd; i < to; i++) {
                passed[k] = i;
                k += in(a[rows[i]], first, width, flip);
            }
            return k;
        }
        // few pass: a plain comparison per op, whose branch predicts well
        final float lo = this.lo;
        final float hi = this.hi;
        switch (op) {
            case 2:
                for (int i = sampleEnd; i < to; i++) {
                    if (a[rows[i]] < hi) {
                        passed[k++] = i;
                    }
                }
                return k;
            case 3:
                for (int i = sampleEnd; i < to; i++) {
                    if (a[rows[i]] <= lo) {
                        passed[k++] = i;
                    }
                }
                return k;
            case 4:
                for (int i = sampleEnd; i < to; i++) {
                    if (a[rows[i]] > lo) {
                        passed[k++] = i;
                    }
                }
                return k;
            case 5:
                for (int i = sampleEnd; i < to; i++) {
                    if (a[rows[i]] >= hi) {
                        passed[k++] = i;
                    }
                }
                return k;
            default: // == and !=: the key test, with a branch
                for (int i = sampleEnd; i < to; i++) {
                    if (in(a[rows[i]], first, width, flip) != 0) {
                        passed[k++] = i;
                    }
                }
                return k;
        }
    }

    /**
     * Two float slots (say, a distance against a per-agent parameter): two floats compare as their
     * doubles do. As in {@link #testFloatSlot}, a sample chooses between the plain comparison and
     * one without a branch: {@link #relation} of the two keys, masked by the operator's relations.
     */
    private void testFloatSlots(float[] a, float[] b, int[] rows, int from, int to, boolean[] out) {
        final int mask = RELATIONS[op];
        final int flip = op == 1 ? 1 : 0;
        final int sampleEnd = Math.min(to, from + SAMPLE);
        int passed = 0;
        for (int i = from; i < sampleEnd; i++) {
            int r = rows[i];
            int in = (((relation(a[r], b[r]) & mask) + 7) >>> 3) ^ flip;
            out[i] = in != 0;
            passed += in;
        }
        if (mixed(passed, sampleEnd - from)) {
            for (int i = sampleEnd; i < to; i++) {
                int r = rows[i];
                out[i] = ((((relation(a[r], b[r]) & mask) + 7) >>> 3) ^ flip) != 0;
            }
            return;
        }
        for (int i = sampleEnd; i < to; i++) {
            int r = rows[i];
            out[i] = compare(a[r], b[r]);
        }
    }

    /** The relations ({@link #relation}) each operator holds for, by its index in {@link #OPS} ({@code !=}: not equal). */
    private static final int[] RELATIONS = {2, 2, 1, 3, 4, 6};

    /**
     * How {@code x} relates to {@code y}, without a branch: 1 less, 2 equal, 4 greater, 0 when
     * either is NaN. Both zeros are +0 first (-0 + 0 is +0), so that they are equal.
     */
    static int relation(float x, float y) {
        long kx = orderKey(x + 0.0f);
        long ky = orderKey(y + 0.0f);
        long span = KEY_POSITIVE_INFINITY - KEY_NEGATIVE_INFINITY + 1;
        // both keys in [-inf, +inf]: no NaN
        int valid = (int) ((((kx - KEY_NEGATIVE_INFINITY) & 0xFFFF_FFFFL) - span) >>> 63)
                & (int) ((((ky - KEY_NEGATIVE_INFINITY) & 0xFFFF_FFFFL) - span) >>> 63);
        long d = kx - ky;
        int less = (int) (d >>> 63);
        int greater = (int) (-d >>> 63);
        int equal = 1 - less - greater;
        return (less | equal << 1 | greater << 2) & -valid;
    }

    /**
     * Whether a sample of {@code sampled} rows of which {@code passed} passed is mixed (more than one
     * row differs from the others): then the branch-free loop tests the rest, else the plain one.
     */
    private static boolean mixed(int passed, int sampled) {
        return passed > 1 && passed < sampled - 1;
    }


    /** {@link #orderKey} of the infinities: every non-NaN float's key lies between them. */
    static final long KEY_NEGATIVE_INFINITY = orderKey(Float.NEGATIVE_INFINITY);
    static final long KEY_POSITIVE_INFINITY = orderKey(Float.POSITIVE_INFINITY);

    /**
     * A key of float {@code x} that orders like {@code x} for every non-NaN value, except that the
     * two zeros, equal as floats, get two adjacent keys (-0 is -1, +0 is 0): its bits, with the
     * magnitude bits of negative values flipped. NaNs get keys above +inf's or below -inf's, so a
     * range of non-NaN keys never holds one.
     */
    static int orderKey(float x) {
        int bits = Float.floatToRawIntBits(x);
        return bits ^ ((bits >> 31) & 0x7FFF_FFFF);
    }

    /** The smallest key of a float equal to {@code c}: -0's for a zero. */
    private static long lowKey(float c) {
        return c == 0f ? orderKey(-0f) : orderKey(c);
    }

    /** The largest key of a float equal to {@code c}: +0's for a zero. */
    private static long highKey(float c) {
        return c == 0f ? orderKey(0f) : orderKey(c);
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
