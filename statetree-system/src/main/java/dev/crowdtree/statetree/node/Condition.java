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

    /** Nesting depth of this condition (1 for a leaf), for scratch sizing. */
    public int depth() {
        return 1;
    }
}
