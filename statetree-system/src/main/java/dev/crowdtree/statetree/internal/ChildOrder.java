package dev.crowdtree.statetree.internal;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * The order in which SelectStateInternal tries a state's children (docs/SEMANTICS.md section 5),
 * the one definition both runtimes call so that they select alike to the bit:
 * <ul>
 *   <li>{@code trySelectChildrenInOrder}: declared order;</li>
 *   <li>{@code trySelectChildrenAtRandom}: a permutation drawn per agent and tick (Fisher-Yates on
 *       the agent's stream {@code SELECT_STREAM_BASE + state}, draw i for position i);</li>
 *   <li>{@code trySelectChildrenWithHighestUtility}: decreasing utility, ties in declared order
 *       (zero-utility children therefore last);</li>
 *   <li>{@code trySelectChildrenAtRandomWeightedByUtility}: one child among those with utility above
 *       0, drawn with probability proportional to it (draw 0 of the same stream), then the others
 *       as in the highest-utility mode.</li>
 * </ul>
 * A {@code sequence} composite (rule K2) is selected only through its first child: {@link #count}
 * is 1 for it. A child's utility is its weight times the product of its considerations, in declared
 * order, in float: x = clamp((input - min) / (max - min), 0, 1), then linear x, inverse 1 - x,
 * quadratic x*x, step (x >= threshold ? 1 : 0).
 *
 * <p>Scratch per selection depth, sized once; allocation-free. THREADING: one instance per worker.
 */
public final class ChildOrder {
    private final CompiledStateTree t;
    private final int[][] order;
    private final float[][] utility;
    /** The number of children of each state. */
    private final int[] childCount;

    public ChildOrder(CompiledStateTree tree) {
        this.t = tree;
        childCount = new int[tree.stateCount];
        int most = 1;
        for (int s = 0; s < tree.stateCount; s++) {
            int n = 0;
            for (int c = s + 1; c < tree.stateSubtreeEnd(s); c = tree.stateSubtreeEnd(c)) {
                n++;
            }
            most = Math.max(most, n);
            // a sequence is selected only through its first child (rule K2)
            childCount[s] = tree.scanRules.isSequence(s) ? Math.min(1, n) : n;
        }
        order = new int[CompiledStateTree.MAX_DEPTH + 1][most];
        utility = new float[CompiledStateTree.MAX_DEPTH + 1][most];
    }

    /**
     * The children of {@code s} in the order to try them, in a buffer for selection depth
     * {@code depth} (the depth of {@code s}: nested selections use their own); the number of
     * children is {@link #count}. {@code row} is the agent's row for the considerations' inputs.
     */
    public int[] order(int s, NodeContext ctx, int row, long seed, int agentId, long tick) {
        int depth = t.stateDepth(s);
        int[] out = order[depth];
        int n = 0;
        for (int c = s + 1; c < t.stateSubtreeEnd(s); c = t.stateSubtreeEnd(c)) {
            out[n++] = c;
        }
        switch (t.stateSelection(s)) {
            case CompiledStateTree.SELECT_AT_RANDOM:
                for (int i = n - 1; i > 0; i--) {
                    int j = CounterRng.below(i + 1, seed, agentId, tick, CompiledStateTree.SELECT_STREAM_BASE + s, i);
                    int tmp = out[i];
                    out[i] = out[j];
                    out[j] = tmp;
                }
                break;
            case CompiledStateTree.SELECT_HIGHEST_UTILITY:
                sortByUtility(out, 0, n, utilities(out, n, depth, ctx, row));
                break;
            case CompiledStateTree.SELECT_WEIGHTED_BY_UTILITY: {
                float[] u = utilities(out, n, depth, ctx, row);
                float total = 0f;
                int lastPositive = -1;
                for (int i = 0; i < n; i++) {
                    if (u[i] > 0f) {
                        total += u[i];
                        lastPositive = i;
                    }
                }
                if (lastPositive >= 0) {
                    float x = CounterRng.uniform(seed, agentId, tick, CompiledStateTree.SELECT_STREAM_BASE + s, 0) * total;
                    int pick = lastPositive; // when rounding leaves x at the very end
                    float cum = 0f;
                    for (int i = 0; i < n; i++) {
                        if (u[i] > 0f) {
                            cum += u[i];
                            if (x < cum) {
                                pick = i;
                                break;
                            }
                        }
                    }
                    moveToFront(out, u, pick);
                    sortByUtility(out, 1, n, u);
                } else {
                    sortByUtility(out, 0, n, u);
                }
                break;
            }
            default:
                break;
        }
        return out;
    }

    /**
     * The number of children of {@code s} to try: the first this many of {@link #order}'s result
     * (all of them, but only the first for a {@code sequence} composite, rule K2).
     */
    public int count(int s) {
        return childCount[s];
    }

    /** The utility of state {@code c} for the agent at {@code row}. */
    public float utility(int c, NodeContext ctx, int row) {
        float w = t.stateWeight(c);
        for (int k = t.stateConsiderationsBegin(c), end = k + t.stateConsiderationsNum(c); k < end; k++) {
            float min = t.considerationMin(k);
            float x = (t.considerationInput(k).getFloat(ctx, row) - min) / (t.considerationMax(k) - min);
            x = Math.max(0f, Math.min(1f, x));
            float y;
            switch (t.considerationCurve(k)) {
                case CompiledStateTree.CURVE_INVERSE:
                    y = 1f - x;
                    break;
                case CompiledStateTree.CURVE_QUADRATIC:
                    y = x * x;
                    break;
                case CompiledStateTree.CURVE_STEP:
                    y = x >= t.considerationThreshold(k) ? 1f : 0f;
                    break;
                default:
                    y = x;
            }
            w *= y;
        }
        return w;
    }

    private float[] utilities(int[] children, int n, int depth, NodeContext ctx, int row) {
        float[] u = utility[depth];
        for (int i = 0; i < n; i++) {
            u[i] = utility(children[i], ctx, row);
        }
        return u;
    }

    /** Stable insertion sort of {@code [from, to)} by decreasing utility (kept beside each child). */
    private static void sortByUtility(int[] children, int from, int to, float[] u) {
        for (int i = from + 1; i < to; i++) {
            int c = children[i];
            float v = u[i];
            int j = i - 1;
            while (j >= from && u[j] < v) {
                children[j + 1] = children[j];
                u[j + 1] = u[j];
                j--;
            }
            children[j + 1] = c;
            u[j + 1] = v;
        }
    }

    private static void moveToFront(int[] children, float[] u, int pick) {
        int c = children[pick];
        float v = u[pick];
        for (int i = pick; i > 0; i--) {
            children[i] = children[i - 1];
            u[i] = u[i - 1];
        }
        children[0] = c;
        u[0] = v;
    }
}
