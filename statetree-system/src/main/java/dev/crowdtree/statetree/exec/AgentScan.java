package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.ScanRules;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.node.RunStatus;

import static dev.crowdtree.statetree.exec.Decisions.RESTART;

/**
 * TriggerTransitions for one agent at a time (docs/SEMANTICS.md sections 4 and 4.1): rounds two to
 * five of every tree ({@link TransitionApply}), and round one of a tree under {@code unreal-5.8}
 * (rules U2-U8), which the state-batched {@link TransitionScan} does not run. A transition's
 * trigger, conditions, gate and target and a composite's rule are checked by the steps
 * {@link TransitionScan} shares with it.
 *
 * <p>Allocation: none. THREADING: confined to its worker.
 */
final class AgentScan {
    /** {@link #triggerScalar}: no transition. */
    static final long NONE = ScanResult.NONE;
    private static final int MAX_PRIORITY = Vocabulary.Priority.CRITICAL.code();
    private static final int NORMAL = TransitionScan.NORMAL;

    private final ChunkBinding st;
    private final TickStatus ts;
    private final Decisions dec;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final TransitionScan scan;
    /** The tree's scan order and composites (rules H1-H2, K1-K6); {@link #composites}: it has some. */
    private final ScanRules rules;
    private final boolean composites;
    /** The scan of a tree under {@code "rules": "unreal-5.8"} (rules U2-U8), else null. */
    private final UnrealAgentScan unreal;

    // The scan in progress: the best priority found and what it decides, the completion (a
    // composite's rule may change it, rule K6) with the depth + 1 of the completed state, and
    // whether the scan stopped (the highest priority found, or a fault).
    private int best;
    private long result;
    private byte completion;
    private int doneLimit;
    private boolean stopped;

    AgentScan(ChunkBinding state, TickStatus ts, Decisions dec, NodeFaults faults, TransitionScan scan) {
        this.st = state;
        this.ts = ts;
        this.dec = dec;
        this.faults = faults;
        this.t = state.t;
        this.scan = scan;
        this.rules = state.t.scanRules;
        this.composites = rules.hasComposites;
        this.unreal = state.t.unreal.on ? new UnrealAgentScan(state, faults, scan) : null;
    }

    /**
     * After {@link #triggerScalar}: the depth from which the transition found exits and enters states
     * as changed (rule U3, {@code unreal-5.8} only), {@code MAX_DEPTH} for none.
     */
    int changedFrom() {
        return unreal != null ? unreal.changedFrom : CompiledStateTree.MAX_DEPTH;
    }

    /** After {@link #triggerScalar}: the completion the scan ran with (a composite's or linked state's, K6, U2). */
    byte scanCompletion() {
        return unreal != null ? unreal.completion() : completion;
    }

    /** After {@link #triggerScalar}: the depth of the completed state of {@link #scanCompletion()}. */
    int scanCompletedDepth() {
        return unreal != null ? unreal.completedDepth() : doneLimit - 1;
    }

    /**
     * Round one for a tree under {@code unreal-5.8}: every agent of the pass (the always-awake
     * {@code aOrder[aLo..aHi)} and X) runs the per-agent scan {@link #triggerScalar} (rules U2-U8).
     */
    void detectAll(int[] aOrder, int aLo, int aHi, int[] xs, int xn) {
        final ChunkBinding c = st;
        for (int i = aLo; i < aHi; i++) {
            detectOne(c, aOrder[i]);
        }
        for (int i = 0; i < xn; i++) {
            detectOne(c, xs[i]);
        }
    }

    private void detectOne(ChunkBinding c, int r) {
        int l = r - c.base;
        if (dec.decStamp[l] == dec.epoch) {
            return; // in both A and X
        }
        long found = triggerScalar(r); // (not stamped yet: a condition that throws fails it, rule R1)
        dec.decStamp[l] = dec.epoch;
        if (found != NONE) {
            dec.firedTransition[l] = ScanResult.transition(found);
            dec.nextLeaf[l] = ScanResult.leaf(found);
            dec.changedFrom[l] = (byte) changedFrom();
            if (c.explains(r)) {
                dec.whyStatus[l] = scanCompletion();
                dec.whyDepth[l] = (byte) scanCompletedDepth();
            }
            dec.firedRows[dec.fired++] = r;
        }
    }

    /**
     * TriggerTransitions for one agent (rounds two to five, round one of trees under
     * {@code unreal-5.8}). A task's pending request is taken first (rule O2). The states are visited
     * leaf to root, or root to leaf (rule H2); at each, a composite's rule first (rules K3-K6), then
     * its transitions in declared order. A transition whose priority is not above the best found so
     * far is skipped unevaluated (a gate it holds keeps running); the best found decides. Returns
     * a {@link ScanResult}, with {@link Decisions#compositeFired} for a composite's
     * transition, or NONE.
     */
    long triggerScalar(int r) {
        if (unreal != null) {
            return unreal.trigger(r); // docs/SEMANTICS.md section 20
        }
        best = -1;
        result = NONE;
        stopped = false;
        completion = st.lastOf(r);
        doneLimit = st.done[r];
        if (st.request != null && st.request[r] != 0) {
            long requested = scan.takeRequest(r, CompiledStateTree.MAX_DEPTH); // rule O2: before the states' transitions
            if (faults.isFaulted(r - st.base)) {
                return NONE;
            }
            if (requested != NONE) {
                best = scan.requestPriority;
                result = requested;
                stopped = best == MAX_PRIORITY;
            }
        }
        int cur = st.stateOf(r) - 1;
        if (rules.rootFirst) {
            for (int d = 0, leafDepth = t.stateDepth(cur); d <= leafDepth && !stopped; d++) {
                scanState(r, t.ancestorAt(cur, d));
            }
        } else {
            for (int s = cur; s >= 0 && !stopped; s = t.stateParent(s)) {
                scanState(r, s);
            }
        }
        if (faults.isFaulted(r - st.base)) {
            return NONE; // a condition threw: the agent fails (rule R1)
        }
        if (best >= 0) {
            return result;
        }
        if (st.lastOf(r) != RunStatus.RUNNING) {
            long restart = ScanResult.of(RESTART, scan.selection.selectInternal(r, 0));
            return faults.isFaulted(r - st.base) ? NONE : restart;
        }
        return NONE;
    }

    /** {@link #triggerScalar} at state {@code s} of row {@code r}'s path. */
    private void scanState(int r, int s) {
        if (composites && rules.isComposite(s) && doneLimit > t.stateDepth(s) + 1 && NORMAL > best
                && RunStatus.isCompletion(completion)) {
            compositeRule(r, s); // rule K3: a child of the composite completed, nothing below handled it
            if (stopped) {
                return;
            }
        }
        for (int tr = t.stateTransitionsBegin(s), end = tr + t.stateTransitionsNum(s); tr < end; tr++) {
            if (t.transitionPriority(tr) <= best) {
                continue;
            }
            boolean ok = scan.shouldCheck(tr, r, completion, doneLimit);
            if (ok) {
                ok = t.payloads.readsPayload(tr) ? scan.payloadPass(r, tr)
                        : scan.conditions.pass(r, t.transitionConditionsBegin(tr), t.transitionConditionsNum(tr));
                if (faults.isFaulted(r - st.base)) {
                    stopped = true; // a condition threw
                    return;
                }
            }
            if (!ok) {
                scan.gates.cancel(r, tr);
                continue;
            }
            int leaf = scan.onPassed(r, tr);
            if (leaf == TransitionScan.CONTINUE) {
                continue;
            }
            best = t.transitionPriority(tr);
            result = leaf == TransitionScan.STOP ? NONE : ScanResult.of(tr, leaf);
            if (best == MAX_PRIORITY) {
                stopped = true;
                return;
            }
        }
    }

    /**
     * The rule of composite {@code c} on row {@code r}'s path, whose active child (or a state below
     * it) completed ({@link TransitionScan#compositeNext}, rules K4, K5): the transition it finds,
     * at normal priority; or the composite completes (rule K6) and the scan goes on at it with that
     * completion.
     */
    private void compositeRule(int r, int c) {
        long found = scan.compositeNext(r, c, completion);
        if (faults.isFaulted(r - st.base)) {
            stopped = true; // an enter condition threw
            return;
        }
        if (found != NONE) {
            best = NORMAL;
            result = found;
            return;
        }
        completion = scan.ruleOutcome;
        doneLimit = t.stateDepth(c) + 1;
    }
}
