package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.compiled.RequiredEvents;
import dev.crowdtree.statetree.compiled.ScanRules;
import dev.crowdtree.statetree.internal.ChildOrder;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;

import java.util.Arrays;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.GOTO;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.NOT_SET;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.SELECT_CHILDREN_IN_ORDER;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_EVENT;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_TICK;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRY_ENTER;
import static dev.crowdtree.statetree.exec.Decisions.RESTART;

/**
 * TriggerTransitions (docs/SEMANTICS.md section 4) with SelectState (section 5). Round one runs
 * batched over a pass ({@link #detectTransitions}): states from the highest id down, so leaf to root
 * for every agent; onTick transitions test their condition kernels over the state's slice of the
 * always-awake agents into a mask, event and completion transitions look only at X (only X agents can
 * have events or a completed state); the first transition that passes decides, gates included, and
 * completed agents that found none restart from the root. Rounds two to five run per agent
 * ({@link AgentScan}), and so does round one of a tree with transition priorities, where what is
 * found is ranked instead of deciding at once, of a tree scanned root first (rule H2), and of the
 * completed agents of a tree with composites (rules K3-K6). The decisions go to
 * {@link Decisions#firedRows} for {@link TransitionApply}. Also the steps both scans share: a
 * transition's trigger, conditions, gate and target (SelectState).
 *
 * <p>THREADING: confined to its worker.
 */
final class TransitionScan {
    /** {@link #onPassed} results beside a selected leaf. */
    static final int CONTINUE = -3, STOP = -4, TERMINAL = -5;

    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final TickStatus ts;
    private final Decisions dec;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final NodeContext ctx;
    private final ChunkEvents events;
    /** The agents' gates (section 4, rule U4). */
    final Gates gates;
    private final ChildOrder childOrder;
    /** The tree's scan order and composites (rules H1-H2, K1-K6); {@link #composites}: it has some. */
    private final ScanRules rules;
    private final boolean composites;
    /** The tree's history states (rules Y1-Y7); {@link #histories}: it has some. */
    private final HistoryStates history;
    private final boolean histories;
    /** The tree's required events to enter (rules V2-V5). */
    private final RequiredEvents required;
    /** The per-agent scan: rounds two to five, and round one where this one cannot decide at once. */
    final AgentScan perAgent;
    /** Round one's onTick transitions over the always-awake agents. */
    private final OnTickScan onTick;
    // Round one's scratch: a transition's candidates (X rows, or indices into A) and their condition
    // results, a condition's results while they are combined, one row's ({@link #conditionsPass}).
    private int[] cand = new int[0];
    private boolean[] pass = new boolean[0];
    private boolean[] tmp = new boolean[0];
    private final int[] one = new int[1];
    private final boolean[] oneOut = new boolean[1];

    TransitionScan(ChunkBinding state, ExtraAgents extra, TickStatus ts, Decisions dec, NodeFaults faults, ChunkEvents events, ChunkTimers timers) {
        this.st = state;
        this.extra = extra;
        this.ts = ts;
        this.dec = dec;
        this.faults = faults;
        this.t = state.t;
        this.ctx = state.ctx;
        this.events = events;
        this.childOrder = new ChildOrder(state.t);
        this.rules = state.t.scanRules;
        this.composites = rules.hasComposites;
        this.history = state.t.history;
        this.histories = history.count() > 0;
        this.required = state.t.requiredEvents;
        this.gates = new Gates(state, dec, timers);
        this.perAgent = new AgentScan(state, ts, dec, faults, this);
        this.onTick = new OnTickScan(state, dec, gates, this);
    }

    void ensureCapacity(int n) {
        cand = new int[n];
        pass = new boolean[n];
        tmp = new boolean[n];
        onTick.ensureCapacity(n);
    }

    /**
     * Round one of TriggerTransitions for the pass: states from the highest id down, so every
     * agent's states are visited leaf to root; per transition, onTick ones test the state's slice of
     * A in place (conditions are pure, so testing decided agents too changes nothing) and the others
     * the state's slice of X whose trigger matches. The first transition that passes decides. Then
     * the completed X agents that found no transition restart from the root.
     */
    void detectTransitions(int[] aOrder, int[] aBegin, int[] xs, int xn) {
        if (t.hasPriorities || rules.rootFirst || t.unreal.on) {
            perAgent.detectAll(aOrder, aBegin[0], aBegin[t.awakeGroupCount], xs, xn);
            return;
        }
        if (composites) {
            perAgent.detectCompleted(xs, xn); // rules K3-K6
        }
        final ChunkBinding c = st;
        final int b = c.base;
        final int ep = dec.epoch;
        final int[] stamp = dec.decStamp;
        final int[] xBegin = extra.stateBegin;
        final int[] cand = this.cand;
        final boolean[] pass = this.pass;
        for (int s = t.stateCount - 1; s >= 0; s--) {
            int num = t.stateTransitionsNum(s);
            if (num == 0) {
                continue;
            }
            int aLo = aBegin[t.stateAwakeGroupsBegin(s)];
            int aHi = aBegin[t.stateAwakeGroupsBegin(t.stateSubtreeEnd(s))];
            int xLo = xBegin[s];
            int xHi = xBegin[t.stateSubtreeEnd(s)];
            if (aLo == aHi && xLo == xHi) {
                continue;
            }
            for (int tr = t.stateTransitionsBegin(s), trEnd = tr + num; tr < trEnd; tr++) {
                boolean gatedTr = t.isGated(tr);
                if (t.transitionTrigger(tr) == TRIGGER_TICK) {
                    if (aLo != aHi) {
                        int begin = t.transitionConditionsBegin(tr);
                        int conditions = t.transitionConditionsNum(tr);
                        if (gatedTr) {
                            testConditions(begin, conditions, aOrder, aLo, aHi, pass);
                            onTick.gated(tr, aOrder, aLo, aHi, pass);
                        } else {
                            int[] passed = onTick.passed();
                            onTick.ungated(tr, aOrder, passed, selectConditions(begin, conditions, aOrder, aLo, aHi, passed));
                        }
                    }
                    continue;
                }
                int m = 0;
                for (int i = xLo; i < xHi; i++) {
                    int r = xs[i];
                    if (stamp[r - b] == ep) {
                        continue;
                    }
                    if (shouldCheck(tr, r)) {
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
                    testConditions(t.transitionConditionsBegin(tr), t.transitionConditionsNum(tr), cand, 0, m, pass);
                }
                for (int j = 0; j < m; j++) {
                    decide(cand[j], tr, pass[j], gatedTr);
                }
            }
        }
        // Restart from root when a completed state found no transition (A8.5).
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - b;
            if (ts.status[l] != RunStatus.RUNNING && stamp[l] != ep) {
                stamp[l] = ep;
                int leaf = selectInternal(r, 0);
                if (faults.isFaulted(l)) {
                    continue; // an enter condition threw: decided as failed (rule R1)
                }
                dec.firedTransition[l] = RESTART;
                dec.nextLeaf[l] = leaf;
                dec.noteWhy(st, r);
                dec.firedRows[dec.fired++] = r;
            }
        }
    }

    /**
     * Transition {@code tr}'s trigger matched for the undecided row {@code r} and its conditions
     * gave {@code passed}: cancel its gate on failure, otherwise record the decision.
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
        dec.decStamp[l] = dec.epoch;
        if (leaf != STOP) {
            dec.firedTransition[l] = tr;
            dec.nextLeaf[l] = leaf;
            dec.noteWhy(st, r);
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
            case GOTO: {
                int target = t.transitionTarget(tr);
                if (required.any && !inBetweenEvents(r, target)) {
                    return CONTINUE; // rule V3
                }
                int leaf = selectTarget(r, target);
                return leaf >= 0 ? leaf : CONTINUE;
            }
            case NOT_SET:
                return STOP;
            default:
                return TERMINAL;
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

    /** Rule U8: the target of the transition being selected and the event it fired on (-1: none). */
    private int eventTarget = -1, targetEvent = -1;

    /**
     * {@link #target} of onEvent transition {@code tr} of row {@code r} in a tree under
     * {@code unreal-5.8}: its target is selected with the event the transition fired on (rule U8).
     */
    int targetWithEvent(int r, int tr) {
        targetEvent = events.firedEvent(r - st.base, tr);
        eventTarget = t.transitionTarget(tr);
        try {
            return target(r, tr);
        } finally {
            eventTarget = -1;
            targetEvent = -1;
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
     * ANDs the conditions {@code [begin, begin+num)} over {@code rows[from..to)} into
     * {@code result[from..to)}.
     */
    private void testConditions(int begin, int num, int[] rowsToTest, int from, int to, boolean[] result) {
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
    private int selectConditions(int begin, int num, int[] rowsToTest, int from, int to, int[] passed) {
        if (num != 1) {
            testConditions(begin, num, rowsToTest, from, to, pass);
            return Condition.passes(pass, from, to, passed);
        }
        try {
            return t.condition(begin).select(ctx, rowsToTest, from, to, pass, passed);
        } catch (RuntimeException | StackOverflowError e) {
            faults.faultConditions(rowsToTest, from, to, t.condition(begin), e); // rule R1, as testConditions
            return 0;
        }
    }

    /** Tests one row's conditions {@code [begin, begin+num)}. */
    boolean conditionsPass(int r, int begin, int num) {
        one[0] = r;
        testConditions(begin, num, one, 0, 1, oneOut);
        return oneOut[0];
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
            if (conditionsPass(r, begin, num)) {
                events.choose(l, e);
                return true;
            }
        }
        return false;
    }

    private boolean enterConditionsPass(int r, int s) {
        int num = t.stateEnterConditionsNum(s);
        if (num == 0) {
            return true;
        }
        return conditionsPass(r, t.stateEnterConditionsBegin(s), num);
    }

    /**
     * SelectState(target) for a transition of row {@code r}: {@link #selectInternal}, with the states
     * it pushes above {@code target} without trying them holding the values entering would give
     * their own parameters (rule X4).
     */
    private int selectTarget(int r, int target) {
        final ChunkBinding c = st;
        if (!t.stateParameters.any) {
            return selectInternal(r, target);
        }
        int mark = c.params.setAbove(ctx, target, c.stateOf(r) - 1, r);
        try {
            return selectInternal(r, target);
        } finally {
            c.params.restore(ctx, r, mark);
        }
    }

    /**
     * SelectState(target) (A5, A6). The kept prefix and the in-between ancestors are not tested
     * (Q-A6; their required events are, by {@link #inBetweenEvents} before), and the resulting path is
     * the parent chain of the selected state, so the result only depends on
     * SelectStateInternal(target). Returns the selected last state, or -1. On success the events the
     * selection chose for states with a required event are the ones a transition to it enters with.
     */
    int selectInternal(int r, int s) {
        int leaf = select(r, s, -1);
        if (leaf >= 0 && required.any) {
            events.commitRequired(r - st.base);
        }
        return leaf;
    }

    /**
     * Rule V3: the ancestors of {@code target} that are not active (SelectState pushes them without
     * their enter conditions, Q-A6) and have a required event each take the first event of row
     * {@code r}'s window that matches it; false when one finds none (the target cannot be selected).
     */
    private boolean inBetweenEvents(int r, int target) {
        int cur = st.stateOf(r) - 1;
        int l = r - st.base;
        for (int a = t.stateParent(target); a >= 0 && !(cur >= 0 && t.isAncestorOrSelf(a, cur)); a = t.stateParent(a)) {
            if (required.has(a)) {
                int e = events.nextRequired(l, -1, a);
                if (e < 0) {
                    return false;
                }
                events.tryRequired(l, t.stateDepth(a), e);
            }
        }
        return true;
    }

    /**
     * Rule V2: the events of row {@code r}'s window that match state {@code s}'s required event are
     * tried in queue order until one lets its enter conditions pass (they read it as
     * {@code {"event": ...}}); that one is the state's. False when none does.
     */
    private boolean requiredEventPass(int r, int s) {
        int l = r - st.base;
        // rule U8: a transition's target is selected with the event the transition fired on, if it matches
        boolean own = s == eventTarget && events.requiredMatches(l, targetEvent, s);
        for (int e = events.nextRequired(l, -1, s); e >= 0; e = events.nextRequired(l, e, s)) {
            if (own && e != targetEvent) {
                continue;
            }
            events.test(l, e);
            if (enterConditionsPass(r, s)) {
                events.tryRequired(l, t.stateDepth(s), e);
                return true;
            }
            if (faults.isFaulted(l)) {
                return false; // an enter condition threw (rule R1)
            }
        }
        return false;
    }

    /**
     * SelectStateInternal of state {@code s} for row {@code r}; {@code toward} is the last state of
     * a deep history's remembered path below {@code s} (rule Y4), or -1: then only the state of that
     * path below {@code s} is tried. A state with parameters of its own is tried with the values
     * entering would give them, put back afterwards (rule X4).
     */
    private int select(int r, int s, int toward) {
        final ChunkBinding c = st;
        if (!c.params.declares(s)) {
            return selectHere(r, s, toward);
        }
        int mark = c.params.setForSelection(ctx, s, r);
        try {
            return selectHere(r, s, toward);
        } finally {
            c.params.restore(ctx, r, mark);
        }
    }

    /**
     * {@link #select} once {@code s}'s own parameters hold their values: its required event and
     * enter conditions, then what a history state remembers (rules Y3, Y4), then its children in the
     * order of its selection mode.
     */
    private int selectHere(int r, int s, int toward) {
        if (!t.stateEnabled(s)) {
            return -1; // rule N2: a disabled state (and so its subtree) is never selected
        }
        if (required.any && required.has(s) ? !requiredEventPass(r, s) : !enterConditionsPass(r, s)) {
            return -1; // rule V2: a required event first, then the enter conditions with it
        }
        if (toward >= 0 && toward != s) {
            // rule Y4: on a deep history's remembered path nothing but the path is tried
            return selectChild(r, s, t.ancestorAt(toward, t.stateDepth(s) + 1), toward);
        }
        if (histories && history.has(s)) {
            int leaf = selectRemembered(r, s);
            if (leaf >= 0) {
                return leaf;
            }
        }
        int end = t.stateSubtreeEnd(s);
        byte mode = t.stateSelection(s);
        if (mode == TRY_ENTER || end == s + 1) {
            return s;
        }
        if (t.stateType(s) == CompiledStateTree.LINKED) {
            return selectChild(r, s, s + 1, -1);
        }
        if (mode == SELECT_CHILDREN_IN_ORDER) {
            // a sequence composite is selected only through its first child (rule K2)
            int last = composites && rules.isSequence(s) ? t.stateSubtreeEnd(s + 1) : end;
            for (int c = s + 1; c < last; c = t.stateSubtreeEnd(c)) {
                int leaf = select(r, c, -1);
                if (leaf >= 0) {
                    return leaf;
                }
            }
            return -1;
        }
        final ChunkBinding st = this.st;
        int[] children = childOrder.order(s, ctx, r, st.sys.seed(), st.ids[r], st.tick);
        for (int i = 0, n = childOrder.count(s); i < n; i++) {
            int leaf = select(r, children[i], -1);
            if (leaf >= 0) {
                return leaf;
            }
        }
        return -1;
    }

    /**
     * {@link #select} of {@code child}, a child of {@code parent}; a linked parent's subtree copy is
     * selected with the parameters the linked state gives it, put back afterwards (rule L3).
     */
    private int selectChild(int r, int parent, int child, int toward) {
        if (t.stateType(parent) != CompiledStateTree.LINKED) {
            return select(r, child, toward);
        }
        final ChunkBinding c = st;
        int mark = c.linked.setForSelection(ctx, parent, r);
        int leaf = select(r, child, toward);
        c.linked.restore(ctx, parent, r, mark);
        return leaf;
    }

    /**
     * Rules Y3, Y4: history state {@code h} tries what it remembers for row {@code r} (its memory
     * column): the remembered child and its own selection (shallow), or the remembered path down to
     * its last state (deep). Returns the selected last state, or -1 when it remembers nothing, when
     * it is on the row's active path (a selection of an active state is not a return to it), or when
     * what it remembers cannot be selected.
     */
    private int selectRemembered(int r, int h) {
        int cur = st.stateOf(r) - 1;
        int remembered = st.d.history[history.index(h)][r];
        if (remembered == HistoryStates.NO_MEMORY || cur >= 0 && t.isAncestorOrSelf(h, cur)) {
            return -1;
        }
        return history.kind(h) == HistoryStates.SHALLOW ? select(r, remembered, -1)
                : select(r, t.ancestorAt(remembered, t.stateDepth(h) + 1), remembered);
    }
}
