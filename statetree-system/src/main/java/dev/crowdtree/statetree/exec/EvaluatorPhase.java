package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * The evaluators of a chunk (docs/SEMANTICS.md section 3 step 4, section 11 for sleeping agents,
 * sections 2 and 7 for Start and Stop): in a pass, EVERY_TICK evaluators over every running agent
 * that takes part (sleeping or not) and WHEN_AWAKE ones over the always-awake agents and the
 * sleeping ones woken into X; at Start {@code treeStart} and a tick with dt 0; at Stop
 * {@code treeStop}. One call per (evaluator, batch of agents).
 *
 * <p>THREADING: confined to its worker.
 */
final class EvaluatorPhase {
    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final NodeContext ctx;

    /** The X agents of a pass outside the always-awake order (sleepers woken in this step). */
    private int[] cand = new int[0];
    /** Stop's row. */
    private final int[] one = new int[1];

    EvaluatorPhase(ChunkBinding state, ExtraAgents extra, NodeFaults faults) {
        this.st = state;
        this.extra = extra;
        this.faults = faults;
        this.t = state.t;
        this.ctx = state.ctx;
    }

    void ensureCapacity(int n) {
        cand = new int[n];
    }

    /**
     * The evaluators of the pass for period {@code 1 << log}: always-awake agents
     * {@code aOrder[aFrom..aTo)}, extra agents in X, every running one that takes part in
     * {@code evals[0..evalN)}. Returns how many agents were awake (A and X).
     */
    int tick(int log, int[] aOrder, int aFrom, int aTo, int[] evals, int evalN) {
        final ChunkBinding c = st;
        final ChunkSchedule cs = c.cs;
        final int base = c.base;
        if (cs.periodAgents == 0 && cs.running == c.rows) {
            for (int eIndex = 0; eIndex < t.everyTickEvaluatorCount(); eIndex++) {
                Evaluator e = t.everyTickEvaluator(eIndex);
                try {
                    e.tickRange(ctx, base, base + c.rows); // every row of the chunk: a plain range
                } catch (RuntimeException | StackOverflowError ex) {
                    faults.faultRange(base, base + c.rows, "evaluator", e, ex);
                }
            }
        } else {
            for (int eIndex = 0; eIndex < t.everyTickEvaluatorCount(); eIndex++) {
                Evaluator e = t.everyTickEvaluator(eIndex);
                tick(e, evals, 0, evalN);
            }
        }
        final int[] xs = extra.rows[log];
        final int[] cand = this.cand;
        int sleepersAwake = 0;
        for (int i = 0, n = extra.count[log]; i < n; i++) {
            if (!cs.isListed(xs[i] - base)) {
                cand[sleepersAwake++] = xs[i];
            }
        }
        for (int eIndex = 0; eIndex < t.whenAwakeEvaluatorCount(); eIndex++) {
            Evaluator e = t.whenAwakeEvaluator(eIndex);
            tick(e, aOrder, aFrom, aTo);
            tick(e, cand, 0, sleepersAwake);
        }
        return aTo - aFrom + sleepersAwake;
    }

    /** Start's evaluators for rows {@code rs[0..n)}: {@code treeStart}, then a tick (the context's dt is 0). */
    void start(int[] rs, int n) {
        for (int eIndex = 0; eIndex < t.evaluatorCount(); eIndex++) {
            Evaluator e = t.evaluator(eIndex);
            try {
                e.treeStart(ctx, rs, 0, n);
            } catch (RuntimeException | StackOverflowError ex) {
                faults.fault(rs, 0, n, "evaluator", e, -1, ex, false);
            }
        }
        for (int eIndex = 0; eIndex < t.evaluatorCount(); eIndex++) {
            Evaluator e = t.evaluator(eIndex);
            tick(e, rs, 0, n);
        }
    }

    /** One evaluator's tick over {@code rs[from..to)}; a throw fails those rows (rule R1). */
    private void tick(Evaluator e, int[] rs, int from, int to) {
        if (from == to) {
            return;
        }
        try {
            e.tick(ctx, rs, from, to);
        } catch (RuntimeException | StackOverflowError ex) {
            faults.fault(rs, from, to, "evaluator", e, -1, ex, false);
        }
    }

    /** Stop's evaluators for one row. */
    void stop(int r) {
        final int[] one = this.one;
        one[0] = r;
        for (int eIndex = 0; eIndex < t.evaluatorCount(); eIndex++) {
            Evaluator e = t.evaluator(eIndex);
            try {
                e.treeStop(ctx, one, 0, 1);
            } catch (RuntimeException | StackOverflowError ex) {
                faults.faultOne(r, "evaluator", e, -1, ex);
            }
        }
    }
}
