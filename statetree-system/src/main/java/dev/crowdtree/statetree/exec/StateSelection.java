package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.compiled.RequiredEvents;
import dev.crowdtree.statetree.compiled.ScanRules;
import dev.crowdtree.statetree.internal.ChildOrder;
import dev.crowdtree.statetree.node.NodeContext;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.SELECT_CHILDREN_IN_ORDER;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRY_ENTER;

/**
 * SelectState for one row (docs/SEMANTICS.md section 5): a transition's target, the restart from
 * the root, a composite's next child. A state is tried by its required event and enter conditions
 * (rules V2-V5), then what a history state remembers (Y3, Y4), then its children in the order of
 * its selection mode (a sequence composite only through its first child, K2), with the state
 * parameters and a linked subtree's parameters holding the values entering would give them (X4,
 * L3). Used by {@link TransitionScan} (which owns it), {@link AgentScan}, {@link UnrealAgentScan}
 * and {@link ChunkRunner}.
 *
 * <p>Allocation: none. THREADING: confined to its worker.
 */
final class StateSelection {
    private final ChunkBinding st;
    private final CompiledStateTree t;
    private final NodeContext ctx;
    private final ChunkEvents events;
    private final NodeFaults faults;
    private final ConditionTests conditions;
    private final ChildOrder childOrder;
    /** The tree's composites (rule K2); {@link #composites}: it has some. */
    private final ScanRules rules;
    private final boolean composites;
    /** The tree's history states (rules Y1-Y7); {@link #histories}: it has some. */
    private final HistoryStates history;
    private final boolean histories;
    /** The tree's required events to enter (rules V2-V5). */
    private final RequiredEvents required;
    /** Rule U8: the target of the transition being selected and the event it fired on (-1: none). */
    private int eventTarget = -1, targetEvent = -1;

    StateSelection(ChunkBinding st, ChunkEvents events, NodeFaults faults, ConditionTests conditions) {
        this.st = st;
        this.t = st.t;
        this.ctx = st.ctx;
        this.events = events;
        this.faults = faults;
        this.conditions = conditions;
        this.childOrder = new ChildOrder(st.t);
        this.rules = st.t.scanRules;
        this.composites = rules.hasComposites;
        this.history = st.t.history;
        this.histories = history.count() > 0;
        this.required = st.t.requiredEvents;
    }

    /**
     * Until {@link #aimDone}: the selection of {@code target} is that of an onEvent transition that
     * fired on event {@code event}, which its required event takes if it matches (rule U8,
     * {@code unreal-5.8}).
     */
    void aim(int target, int event) {
        eventTarget = target;
        targetEvent = event;
    }

    /** Ends {@link #aim}. */
    void aimDone() {
        eventTarget = -1;
        targetEvent = -1;
    }

    private boolean enterConditionsPass(int r, int s) {
        int num = t.stateEnterConditionsNum(s);
        if (num == 0) {
            return true;
        }
        return conditions.pass(r, t.stateEnterConditionsBegin(s), num);
    }

    /**
     * SelectState(target) for a transition of row {@code r}: {@link #selectInternal}, with the states
     * it pushes above {@code target} without trying them holding the values entering would give
     * their own parameters (rule X4).
     */
    int selectTarget(int r, int target) {
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
    boolean inBetweenEvents(int r, int target) {
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
        int[] children = childOrder.order(s, ctx, r, st.seed, st.ids[r], st.tick);
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
