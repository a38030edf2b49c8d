package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.RequiredEvents;
import dev.crowdtree.statetree.compiled.ScanRules;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.node.RunStatus;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.GOTO;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.NOT_SET;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_EVENT;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_TICK;
import static dev.crowdtree.statetree.exec.Decisions.RESTART;

/**
 * TriggerTransitions (docs/SEMANTICS.md section 4) with SelectState (section 5). Round one runs
 * batched over a pass ({@link #detectTransitions}): states from the highest id down, so leaf to root
 * for every agent (from the lowest id up under rule H2, root to leaf); onTick transitions test their
 * condition kernels over the state's slice of the always-awake agents into a mask, event and
 * completion transitions look only at X (only X agents can have events or a completed state); the
 * first transition that passes decides, gates included, and completed agents that found none restart
 * from the root. In a tree with priorities what a transition finds decides at once only when no
 * transition later in the agent's scan has a higher priority ({@link #outrankable}); otherwise it is
 * kept as the agent's best ({@link Decisions#found}), later transitions are tested only for agents
 * whose best they outrank ({@link Decisions#open}), and the bests decide at the end (rule P1): the
 * per-agent scan's evaluations, in the same order for each agent. A composite's rule takes its
 * turn at the composite, over the completed X rows of its slice (rules K3-K6, {@link #compositeRules}),
 * and a task's transition request before every state (rules O1-O4, {@link #takeRequest}). Rounds two
 * to five run per agent ({@link AgentScan}), and so does round one of a tree under {@code unreal-5.8}.
 * The decisions go to {@link Decisions#firedRows} for {@link TransitionApply}. Also the steps both
 * scans share: a transition's trigger, conditions ({@link ConditionTests}), gate and target
 * (SelectState, {@link StateSelection}).
 *
 * <p>THREADING: confined to its worker.
 */
final class TransitionScan {
    /** {@link #onPassed} results beside a selected leaf. */
    static final int CONTINUE = -3, STOP = -4, TERMINAL = -5;
    /** The priority a composite's rule finds at (rule K3). */
    static final int NORMAL = Vocabulary.Priority.NORMAL.code();

    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final TickStatus ts;
    private final Decisions dec;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final ChunkEvents events;
    /** The agents' gates (section 4, rule U4). */
    final Gates gates;
    /** The tree's conditions over rows. */
    final ConditionTests conditions;
    /** SelectState (section 5). */
    final StateSelection selection;
    /** The tree's scan order and composites (rules H1-H2, K1-K6); {@link #composites}: it has some. */
    private final ScanRules rules;
    private final boolean composites;
    /** The tree's required events to enter (rules V2-V5). */
    private final RequiredEvents required;
    /** The per-agent scan: rounds two to five, and round one where this one cannot decide at once. */
    final AgentScan perAgent;
    /** Round one's onTick transitions over the always-awake agents. */
    private final OnTickScan onTick;
    /**
     * Per transition: a transition later in an agent's scan (after it in its state, then the states
     * above it, or below it under rule H2) has a higher priority, so what it finds does not decide
     * at once (rule P1). All false in a tree without priorities.
     */
    private final boolean[] outrankable;
    /**
     * Per state, in a tree with composites: a transition later in an agent's scan than the
     * composite's rule (the state's own transitions, then the states above it, or below it under
     * rule H2) has a priority above normal, so what the rule finds does not decide at once (rule P1).
     */
    private final boolean[] ruleOutrankable;
    /**
     * Round one's completion per X row in a tree with composites, valid when {@link #kStamp} equals
     * {@link #kEpoch}: the status and completed depth + 1 the scan runs with, which a composite's
     * rule changes as it completes (rule K6) for the completion transitions and rules above it.
     */
    private byte[] kLast = new byte[0], kDone = new byte[0];
    private int[] kStamp = new int[0];
    private int kEpoch;
    /** After {@link #compositeNext} found nothing: the composite's outcome (rule K6). */
    byte ruleOutcome;
    // Round one's scratch: a transition's candidates (X rows, or indices into A) and their condition results.
    private int[] cand = new int[0];
    private boolean[] pass = new boolean[0];

    TransitionScan(ChunkBinding state, ExtraAgents extra, TickStatus ts, Decisions dec, NodeFaults faults, ChunkEvents events, ChunkTimers timers) {
        this.st = state;
        this.extra = extra;
        this.ts = ts;
        this.dec = dec;
        this.faults = faults;
        this.t = state.t;
        this.events = events;
        this.rules = state.t.scanRules;
        this.composites = rules.hasComposites;
        this.required = state.t.requiredEvents;
        this.conditions = new ConditionTests(state.t, state.ctx, faults);
        this.selection = new StateSelection(state, events, faults, conditions);
        this.gates = new Gates(state, dec, timers);
        this.perAgent = new AgentScan(state, ts, dec, faults, this);
        this.onTick = new OnTickScan(state, dec, gates, this);
        this.outrankable = new boolean[t.transitionCount];
        this.ruleOutrankable = new boolean[t.stateCount];
        rankings(state.t, rules, outrankable, ruleOutrankable);
        dec.ranking = state.t.hasPriorities;
    }

    /**
     * Fills {@link #outrankable} and {@link #ruleOutrankable} of tree {@code t} with its scan
     * order and composites; a composite's rule finds at normal priority, before the state's
     * transitions. All false in a tree without priorities.
     */
    private static void rankings(CompiledStateTree t, ScanRules rules, boolean[] o, boolean[] ruleO) {
        if (!t.hasPriorities) {
            return;
        }
        for (int s = 0; s < t.stateCount; s++) {
            int after = -1; // the highest priority scanned after the state's transitions
            if (rules.rootFirst) {
                for (int d = s + 1; d < t.stateSubtreeEnd(s); d++) {
                    after = Math.max(after, highestPriority(t, rules, d));
                }
            } else {
                for (int a = t.stateParent(s); a >= 0; a = t.stateParent(a)) {
                    after = Math.max(after, highestPriority(t, rules, a));
                }
            }
            int begin = t.stateTransitionsBegin(s);
            for (int tr = begin + t.stateTransitionsNum(s) - 1; tr >= begin; tr--) {
                o[tr] = after > t.transitionPriority(tr);
                after = Math.max(after, t.transitionPriority(tr));
            }
            ruleO[s] = after > NORMAL;
        }
    }

    /** The highest priority state {@code s} can find at: its transitions', and a composite's rule's (normal). */
    private static int highestPriority(CompiledStateTree t, ScanRules rules, int s) {
        int p = rules.isComposite(s) ? NORMAL : -1;
        for (int tr = t.stateTransitionsBegin(s), end = tr + t.stateTransitionsNum(s); tr < end; tr++) {
            p = Math.max(p, t.transitionPriority(tr));
        }
        return p;
    }

    void ensureCapacity(int n) {
        cand = new int[n];
        pass = new boolean[n];
        conditions.ensureCapacity(n);
        onTick.ensureCapacity(n);
        if (composites) {
            kLast = new byte[n];
            kDone = new byte[n];
            kStamp = new int[n];
        }
    }

    /**
     * Round one of TriggerTransitions for the pass: states from the highest id down, so every
     * agent's states are visited leaf to root; per transition, onTick ones test the state's slice of
     * A in place (conditions are pure, so testing decided agents too changes nothing) and the others
     * the state's slice of X whose trigger matches. The first transition that passes decides. Then
     * the completed X agents that found no transition restart from the root.
     */
    void detectTransitions(int[] aOrder, int[] aBegin, int[] xs, int xn) {
        if (t.unreal.on) {
            perAgent.detectAll(aOrder, aBegin[0], aBegin[t.awakeGroupCount], xs, xn);
            return;
        }
        final ChunkBinding c = st;
        final int b = c.base;
        if (composites) {
            startCompletions(xs, xn);
        }
        final int[] xBegin = extra.stateBegin;
        final int[] cand = this.cand;
        final boolean[] pass = this.pass;
        final int states = t.stateCount;
        final boolean rootFirst = rules.rootFirst;
        dec.ranked = 0;
        if (t.requestsTransitions) {
            requests(xs, xn); // rule O2: before the states' transitions
        }
        for (int k = 0; k < states; k++) {
            int s = rootFirst ? k : states - 1 - k; // rule H2: ancestors before descendants
            int num = t.stateTransitionsNum(s);
            boolean rule = composites && rules.isComposite(s);
            if (num == 0 && !rule) {
                continue;
            }
            int aLo = aBegin[t.stateAwakeGroupsBegin(s)];
            int aHi = aBegin[t.stateAwakeGroupsBegin(t.stateSubtreeEnd(s))];
            int xLo = xBegin[s];
            int xHi = xBegin[t.stateSubtreeEnd(s)];
            if (aLo == aHi && xLo == xHi) {
                continue;
            }
            if (rule && xLo != xHi) {
                compositeRules(s, xs, xLo, xHi); // rules K3-K6, before the state's transitions
            }
            for (int tr = t.stateTransitionsBegin(s), trEnd = tr + num; tr < trEnd; tr++) {
                boolean gatedTr = t.isGated(tr);
                int priority = t.transitionPriority(tr);
                dec.testing = priority;
                if (t.transitionTrigger(tr) == TRIGGER_TICK) {
                    if (aLo != aHi) {
                        int begin = t.transitionConditionsBegin(tr);
                        int nc = t.transitionConditionsNum(tr);
                        if (gatedTr) {
                            conditions.test(begin, nc, aOrder, aLo, aHi, pass);
                            if (t.hasPriorities) {
                                onTick.gatedRanked(tr, priority, aOrder, aLo, aHi, pass);
                            } else {
                                onTick.gated(tr, aOrder, aLo, aHi, pass);
                            }
                        } else {
                            int[] passed = onTick.passed();
                            onTick.ungated(tr, priority, aOrder, passed, conditions.select(begin, nc, aOrder, aLo, aHi, passed));
                        }
                    }
                    continue;
                }
                int m = 0;
                for (int i = xLo; i < xHi; i++) {
                    int r = xs[i];
                    if (!dec.open(r - b, priority)) {
                        continue; // decided, or it found a transition this one does not outrank (rule P1)
                    }
                    if (composites ? shouldCheck(tr, r, kLast[r - b], kDone[r - b]) : shouldCheck(tr, r)) {
                        cand[m++] = r;
                    } else if (gatedTr) {
                        gates.cancel(r, tr); // the pending gate's trigger no longer matches
                    }
                }
                if (m == 0) {
                    continue;
                }
                if (t.payloads.readsPayload(tr)) {
                    for (int j = 0; j < m; j++) {
                        pass[j] = payloadPass(cand[j], tr);
                    }
                } else {
                    conditions.test(t.transitionConditionsBegin(tr), t.transitionConditionsNum(tr), cand, 0, m, pass);
                }
                for (int j = 0; j < m; j++) {
                    decide(cand[j], tr, pass[j], gatedTr);
                }
            }
        }
        settleRanked();
        // Restart from root when a completed state found no transition (A8.5).
        final int ep = dec.epoch;
        final int[] stamp = dec.decStamp;
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - b;
            if (ts.status[l] != RunStatus.RUNNING && stamp[l] != ep) {
                stamp[l] = ep;
                int leaf = selection.selectInternal(r, 0);
                if (faults.isFaulted(l)) {
                    continue; // an enter condition threw: decided as failed (rule R1)
                }
                dec.firedTransition[l] = RESTART;
                dec.nextLeaf[l] = leaf;
                noteWhy(r);
                dec.firedRows[dec.fired++] = r;
            }
        }
    }

    /**
     * Round one in a tree with composites: the X rows' completions as the scan starts
     * ({@link #kLast}, {@link #kDone}), which composites' rules change as they complete.
     */
    private void startCompletions(int[] xs, int xn) {
        final ChunkBinding c = st;
        final int b = c.base;
        final int ep = ++kEpoch;
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - b;
            kStamp[l] = ep;
            kLast[l] = c.lastOf(r);
            kDone[l] = c.done[r];
        }
    }

    /**
     * Composite {@code s}'s rule (rules K3-K6) for the rows {@code xs[xLo..xHi)} of its subtree, at
     * its turn in the scan, before its transitions: a row whose completed state is below
     * {@code s}, still open to a find at normal priority, gets the rule's transition to a later
     * sibling ({@link #compositeNext}), decided at once unless something later in its scan can
     * outrank it (rule P1), or else scans on with the composite's completion (rule K6).
     */
    private void compositeRules(int s, int[] xs, int xLo, int xHi) {
        final int b = st.base;
        final int ep = kEpoch;
        final int limit = t.stateDepth(s) + 1;
        dec.testing = NORMAL;
        for (int i = xLo; i < xHi; i++) {
            int r = xs[i];
            int l = r - b;
            if (kStamp[l] != ep || kDone[l] <= limit || !RunStatus.isCompletion(kLast[l]) || !dec.open(l, NORMAL)) {
                continue;
            }
            long found = compositeNext(r, s, kLast[l]);
            if (faults.isFaulted(l)) {
                continue; // an enter condition threw: decided as failed (rule R1)
            }
            if (found == ScanResult.NONE) {
                kLast[l] = ruleOutcome;
                kDone[l] = (byte) limit;
            } else if (ruleOutrankable[s]) {
                dec.found(r, l, ScanResult.transition(found), ScanResult.leaf(found), NORMAL);
            } else {
                dec.decStamp[l] = dec.epoch;
                dec.firedTransition[l] = ScanResult.transition(found);
                dec.nextLeaf[l] = ScanResult.leaf(found);
                noteWhy(r);
                dec.firedRows[dec.fired++] = r;
            }
        }
    }

    /**
     * The rule of composite {@code c} for row {@code r}, whose active child (or a state below it)
     * completed with {@code completion} (rules K4, K5): the siblings after the child that it tries
     * ({@code ScanRules.siblingsToTry}) are selected in declared order, and the first that can be
     * is the transition found ({@link Decisions#compositeFired}, as a {@link ScanResult}).
     * Otherwise {@link ScanResult#NONE}: the composite completes (rule K6) with
     * {@link #ruleOutcome}: the completion when it tries none or the child is the last, FAILED when
     * none of those it tried could be selected. Also NONE when an enter condition threw (the row
     * is faulted).
     */
    long compositeNext(int r, int c, byte completion) {
        int child = t.ancestorAt(st.stateOf(r) - 1, t.stateDepth(c) + 1);
        int tries = rules.siblingsToTry(c, completion);
        int end = t.stateSubtreeEnd(c);
        int sibling = t.stateSubtreeEnd(child); // the next sibling (DFS pre-order), or the composite's end
        byte outcome = completion;
        if (tries > 0 && sibling < end) {
            for (int tried = 0; tried < tries && sibling < end; tried++, sibling = t.stateSubtreeEnd(sibling)) {
                int leaf = selection.selectInternal(r, sibling);
                if (faults.isFaulted(r - st.base)) {
                    return ScanResult.NONE;
                }
                if (leaf >= 0) {
                    return ScanResult.of(Decisions.compositeFired(sibling), leaf);
                }
            }
            outcome = RunStatus.FAILED;
        }
        if (st.traced(r)) {
            st.trace(r, TraceFormat.stateCompleted(st.tick, t, c, outcome));
        }
        ruleOutcome = outcome;
        return ScanResult.NONE;
    }

    /** {@link Decisions#noteWhy} with the completion round one ran with for row {@code r}. */
    private void noteWhy(int r) {
        int l = r - st.base;
        if (composites && kStamp[l] == kEpoch) {
            dec.noteWhy(st, r, kLast[l], kDone[l]);
        } else {
            dec.noteWhy(st, r, st.lastOf(r), st.done[r]);
        }
    }

    /**
     * The rows that found a transition some later one could have outranked, and none did: what
     * they found decides (rule P1), a {@code @none} or a waiting gate by firing nothing.
     */
    private void settleRanked() {
        final int b = st.base;
        for (int i = 0, n = dec.ranked; i < n; i++) {
            int r = dec.rankedRows[i];
            int l = r - b;
            if (dec.decStamp[l] == dec.epoch) {
                continue; // outranked by a transition that decided at once, or faulted
            }
            dec.decStamp[l] = dec.epoch;
            if (dec.nextLeaf[l] != STOP) {
                noteWhy(r);
                dec.firedRows[dec.fired++] = r;
            }
        }
        dec.ranked = 0;
    }

    /**
     * Transition {@code tr}'s trigger matched for row {@code r}, open to it ({@link Decisions#open}),
     * and its conditions gave {@code passed}: cancel its gate on failure, otherwise record what it
     * found: a decision, or in a tree with priorities a find that a later transition may outrank.
     */
    void decide(int r, int tr, boolean passed, boolean gatedTr) {
        if (!passed) {
            if (gatedTr) {
                gates.cancel(r, tr);
            }
            return;
        }
        int leaf = onPassed(r, tr);
        final ChunkBinding c = st;
        int l = r - c.base;
        if (leaf == CONTINUE || faults.isFaulted(l)) {
            return; // (a faulted row was decided when its node threw, rule R1)
        }
        if (outrankable[tr]) {
            dec.found(r, l, tr, leaf, t.transitionPriority(tr)); // rule P1: the scan goes on for this row
            return;
        }
        dec.decStamp[l] = dec.epoch;
        if (leaf != STOP) {
            dec.firedTransition[l] = tr;
            dec.nextLeaf[l] = leaf;
            noteWhy(r);
            dec.firedRows[dec.fired++] = r;
        }
    }

    /**
     * Transition {@code tr} passed its trigger and conditions for row {@code r}: handle the gate and
     * the type. Returns the selected leaf, {@link #TERMINAL} for @succeeded/@failed, {@link #STOP}
     * when the scan must stop without a transition (gate waiting, @none), or {@link #CONTINUE} when
     * the target could not be selected.
     */
    int onPassed(int r, int tr) {
        if (t.isGated(tr)) {
            gates.hold(r, tr);
            if (gates.waiting(r)) {
                return STOP; // the gate is still closed (Q-A5: blocks the rest of the scan)
            }
        }
        return target(r, tr);
    }

    /**
     * What transition {@code tr} of row {@code r} does once it fires: the leaf SelectState selected
     * for its target, {@link #CONTINUE} when the target cannot be selected, {@link #STOP} for
     * {@code @none}, {@link #TERMINAL} for {@code @succeeded}/{@code @failed}.
     */
    int target(int r, int tr) {
        switch (t.transitionType(tr)) {
            case GOTO:
                return selectGoto(r, t.transitionTarget(tr));
            case NOT_SET:
                return STOP;
            default:
                return TERMINAL;
        }
    }

    /** SelectState for a transition to state {@code target} of row {@code r}: the leaf, or {@link #CONTINUE}. */
    private int selectGoto(int r, int target) {
        if (required.any && !selection.inBetweenEvents(r, target)) {
            return CONTINUE; // rule V3
        }
        int leaf = selection.selectTarget(r, target);
        return leaf >= 0 ? leaf : CONTINUE;
    }

    /** After {@link #takeRequest} found one: its priority. */
    int requestPriority;

    /**
     * Row {@code r}'s pending transition request (rules O1-O4), taken (it is tried once): what it
     * finds as a {@link ScanResult} ({@link Decisions#requestFired}; its priority in
     * {@link #requestPriority}), or {@link ScanResult#NONE} when the row has none, the task that
     * made it is in a state deeper than {@code failsBelow} (rule U3 under {@code unreal-5.8}: the
     * completed state's depth; else {@code MAX_DEPTH}), or its state cannot be selected now (or an
     * enter condition threw: the row is faulted).
     */
    long takeRequest(int r, int failsBelow) {
        final short[] q = st.request;
        if (q == null || q[r] == 0) {
            return ScanResult.NONE;
        }
        int target = q[r] - 1;
        int priority = st.requestPriority[r];
        q[r] = 0;
        if (st.requestSource[r] - 1 > failsBelow) {
            return ScanResult.NONE; // rule U3: its task's state is below the completed state
        }
        dec.testing = priority;
        int leaf = selectGoto(r, target);
        if (leaf < 0 || faults.isFaulted(r - st.base)) {
            return ScanResult.NONE;
        }
        requestPriority = priority;
        return ScanResult.of(Decisions.requestFired(target, priority), leaf);
    }

    /**
     * Round one: the X rows' pending requests (rule O2), each found at its priority before the
     * states' transitions, which outrank it only with a higher one (P1).
     */
    private void requests(int[] xs, int xn) {
        final int b = st.base;
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - b;
            if (st.request[r] == 0 || dec.decStamp[l] == dec.epoch) {
                continue;
            }
            long found = takeRequest(r, CompiledStateTree.MAX_DEPTH);
            if (found != ScanResult.NONE) {
                dec.found(r, l, ScanResult.transition(found), ScanResult.leaf(found), requestPriority);
            }
        }
    }

    boolean shouldCheck(int tr, int r) {
        byte trig = t.transitionTrigger(tr);
        if (trig == TRIGGER_TICK) {
            return true;
        }
        if (trig == TRIGGER_EVENT) {
            return events.hasEvent(r - st.base, tr);
        }
        return completionMatches(tr, trig, st.lastOf(r), st.done[r]);
    }

    /**
     * {@link #shouldCheck(int, int)} with row {@code r}'s completion given: {@code status}, and
     * {@code doneLimit} the depth + 1 of the completed state ({@link ChunkBinding#done}).
     */
    boolean shouldCheck(int tr, int r, byte status, int doneLimit) {
        byte trig = t.transitionTrigger(tr);
        if (trig == TRIGGER_TICK || trig == TRIGGER_EVENT) {
            return shouldCheck(tr, r);
        }
        return completionMatches(tr, trig, status, doneLimit);
    }

    /**
     * {@link #target} of onEvent transition {@code tr} of row {@code r} in a tree under
     * {@code unreal-5.8}: its target is selected with the event the transition fired on (rule U8).
     */
    int targetWithEvent(int r, int tr) {
        selection.aim(t.transitionTarget(tr), events.firedEvent(r - st.base, tr));
        try {
            return target(r, tr);
        } finally {
            selection.aimDone();
        }
    }

    /** Consumes the event that made onEvent transition {@code tr} pass for row {@code r} (section 8). */
    void consumeEvent(int r, int tr) {
        events.consumeEvent(r - st.base, tr);
    }

    /** Whether completion trigger {@code trig} of transition {@code tr} matches a completion with {@code status}. */
    private boolean completionMatches(int tr, byte trig, byte status, int doneLimit) {
        byte completion = status == RunStatus.SUCCEEDED ? TRIGGER_SUCCEEDED
                : status == RunStatus.FAILED ? TRIGGER_FAILED : 0;
        // scoped completion: only the completed state and its ancestors see it
        return (trig & completion) != 0 && t.stateDepth(t.transitionSource(tr)) < doneLimit;
    }

    /**
     * An onEvent transition with payload fields (rule E3): row {@code r}'s events that match it
     * (tag and declared fields) are tried in queue order until one passes the conditions, which
     * read its payload; that one is consumed if the transition fires.
     */
    boolean payloadPass(int r, int tr) {
        int l = r - st.base;
        int begin = t.transitionConditionsBegin(tr);
        int num = t.transitionConditionsNum(tr);
        for (int e = events.nextMatch(l, -1, tr); e >= 0; e = events.nextMatch(l, e, tr)) {
            events.test(l, e);
            if (conditions.pass(r, begin, num)) {
                events.choose(l, e);
                return true;
            }
        }
        return false;
    }
}
