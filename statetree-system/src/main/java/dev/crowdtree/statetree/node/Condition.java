package dev.crowdtree.statetree.node;

/**
 * A condition: a batch predicate. {@link #test} writes {@code out[i]} for every
 * {@code i in from .. to-1}, the result for the agent in row {@code rows[i]}. Used for enter
 * conditions during selection and for transition conditions.
 *
 * <p>Contract: pure with respect to agent state (a condition may draw from the agent's counter-based
 * random stream, which gives the same value when asked twice in one tick); allocate nothing.
 * Composite conditions take temporary arrays from {@link NodeContext#pushScratch()}.
 */
public abstract class Condition extends Node {
    protected Condition(NodeConfig config) {
        super(config);
    }

    public abstract void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out);

    /**
     * The same results as {@link #test}, in the form a scan that looks only at the agents that pass
     * wants: the positions {@code i} in {@code from .. to-1} whose agent (row {@code rows[i]})
     * passes, written in ascending order to {@code passed[0..k)}; returns {@code k}.
     * {@code scratch} has room for {@code to} results and {@code passed} for {@code to - from}
     * positions. The runtime calls it for an onTick transition with this one condition and no delay,
     * over its state's always-awake agents.
     *
     * <p>The default tests into {@code scratch} and collects the passes ({@link #passes}). Override it
     * when a condition few agents pass in a tick can find them in one loop, without a result per
     * agent ({@code compare} on a float does).
     */
    public int select(NodeContext ctx, int[] rows, int from, int to, boolean[] scratch, int[] passed) {
        test(ctx, rows, from, to, scratch);
        return passes(scratch, from, to, passed);
    }

    /**
     * The positions {@code i} in {@code from .. to-1} with {@code results[i]} true, written in
     * ascending order to {@code passed[0..k)}; returns {@code k}. A sample of the first
     * {@value #SAMPLE} results chooses the loop: when at most 2 of them pass, a branch that predicts
     * well and writes nothing for the others; else a loop without a branch (passes in no order
     * would mispredict one).
     */
    public static int passes(boolean[] results, int from, int to, int[] passed) {
        int k = 0;
        final int sampleEnd = Math.min(to, from + SAMPLE);
        for (int i = from; i < sampleEnd; i++) {
            passed[k] = i;
            k += results[i] ? 1 : 0;
        }
        if (few(k)) {
            for (int i = sampleEnd; i < to; i++) {
                if (results[i]) {
                    passed[k++] = i;
                }
            }
        } else {
            for (int i = sampleEnd; i < to; i++) {
                passed[k] = i;
                k += results[i] ? 1 : 0;
            }
        }
        return k;
    }

    /** Agents of a batch whose results choose the form of a loop ({@link #passes}). */
    public static final int SAMPLE = 64;

    /** Whether {@code k} passes among (up to) {@link #SAMPLE} sampled agents are few enough for a branch per agent. */
    protected static boolean few(int k) {
        return k <= SAMPLE >> 5;
    }

    /** Nesting depth of this condition (1 for a leaf), for scratch sizing. */
    public int depth() {
        return 1;
    }
}
