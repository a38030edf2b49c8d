package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeContext;

import java.util.Arrays;

/**
 * A tree's conditions tested over rows, for the transition scans and SelectState: a transition's
 * conditions ANDed over a batch of rows, or the positions that pass them, or one row's; a condition
 * that throws fails the rows still open to it (rule R1, {@link NodeFaults#faultConditions}) and
 * counts as not passed.
 *
 * <p>Allocation: only in {@link #ensureCapacity}. THREADING: confined to its worker.
 */
final class ConditionTests {
    private final CompiledStateTree t;
    private final NodeContext ctx;
    private final NodeFaults faults;
    // A condition's results while they are combined; the results a selection lists from; one row's.
    private boolean[] tmp = new boolean[0];
    private boolean[] scratch = new boolean[0];
    private final int[] one = new int[1];
    private final boolean[] oneOut = new boolean[1];

    ConditionTests(CompiledStateTree t, NodeContext ctx, NodeFaults faults) {
        this.t = t;
        this.ctx = ctx;
        this.faults = faults;
    }

    void ensureCapacity(int n) {
        tmp = new boolean[n];
        scratch = new boolean[n];
    }

    /**
     * ANDs the conditions {@code [begin, begin+num)} over {@code rows[from..to)} into
     * {@code result[from..to)}.
     */
    void test(int begin, int num, int[] rowsToTest, int from, int to, boolean[] result) {
        if (num == 0) {
            Arrays.fill(result, from, to, true);
            return;
        }
        int c = begin;
        try {
            t.condition(c).test(ctx, rowsToTest, from, to, result);
            final boolean[] tmp = this.tmp;
            for (c = begin + 1; c < begin + num; c++) {
                t.condition(c).test(ctx, rowsToTest, from, to, tmp);
                for (int i = from; i < to; i++) {
                    result[i] &= tmp[i];
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            // rule R1: the rows fail (decided now in round one; the apply phase finishes them itself)
            faults.faultConditions(rowsToTest, from, to, t.condition(c), e);
            Arrays.fill(result, from, to, false);
        }
    }

    /**
     * The positions {@code i} in {@code from .. to-1} whose row {@code rowsToTest[i]} passes the
     * conditions {@code [begin, begin+num)}, ascending, in {@code passed[0..k)}; returns {@code k}. One
     * condition finds them itself ({@link Condition#select}); several are tested and combined first.
     */
    int select(int begin, int num, int[] rowsToTest, int from, int to, int[] passed) {
        if (num != 1) {
            test(begin, num, rowsToTest, from, to, scratch);
            return Condition.passes(scratch, from, to, passed);
        }
        try {
            return t.condition(begin).select(ctx, rowsToTest, from, to, scratch, passed);
        } catch (RuntimeException | StackOverflowError e) {
            faults.faultConditions(rowsToTest, from, to, t.condition(begin), e); // rule R1, as test
            return 0;
        }
    }

    /** Tests one row's conditions {@code [begin, begin+num)}. */
    boolean pass(int r, int begin, int num) {
        one[0] = r;
        test(begin, num, one, 0, 1, oneOut);
        return oneOut[0];
    }
}
