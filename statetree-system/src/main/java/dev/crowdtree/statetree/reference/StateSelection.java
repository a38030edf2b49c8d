package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.compiled.RequiredEvents;
import dev.crowdtree.statetree.internal.ChildOrder;
import dev.crowdtree.statetree.internal.LinkedParameters;
import dev.crowdtree.statetree.internal.StateParameterValues;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INDEX_NONE;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;

/**
 * {@code SelectState} and {@code SelectStateInternal} (docs/SEMANTICS.md section 5): which path of
 * states a transition to a state (or the start, or the restart from root) would make active. It
 * keeps the active path down to the common ancestor, pushes the states between it and the target
 * without their enter conditions (Q-A6; but one with a required event needs a matching event, rule
 * V3), then selects down from the target: the required event (rule V2) and enter conditions, a
 * {@code tryEnterState} state ends the path (Q-A10), otherwise the first child that can be selected,
 * in the order of the state's selection mode ({@link ChildOrder}: declared, random or by utility; a
 * {@code sequence} composite only through its first child, rule K2; a linked state's only child is
 * its private subtree copy, Q-A7, selected with the linked state's parameters written into the copy
 * for the time of that selection, rule L3; a state's own parameters, and those of the states pushed
 * above the target, hold the values entering would give them while it is tried, rule X4). A
 * history state selected again tries first what it remembers (rules Y2-Y4).
 */
final class StateSelection {
    private final CompiledStateTree tree;
    private final InterpreterData data;
    private final NodeCalls nodes;
    private final ChildOrder childOrder;
    private final LinkedParameters linkedParameters;
    /** {@link #selectStateInternal}'s {@code toward} outside a deep history's remembered path. */
    private static final int NO_PATH = -1;
    /** The agent being selected for: a history state on its active path is not returned to (rule Y3). */
    private ExecutionState exec;
    private final RequiredEvents required;
    private final StateParameterValues stateParameters;

    StateSelection(InterpreterData data, NodeCalls nodes, LinkedParameters linkedParameters) {
        this.tree = data.tree;
        this.data = data;
        this.nodes = nodes;
        this.childOrder = new ChildOrder(data.tree);
        this.linkedParameters = linkedParameters;
        this.required = data.tree.requiredEvents;
        this.stateParameters = new StateParameterValues(data.tree);
    }

    /**
     * Rule V2: the first event of the agent's window (its {@code EventsToProcess}, in queue order)
     * that matches state {@code s}'s required event and lets its enter conditions pass (they read
     * it as {@code {"event": ...}}), or null.
     */
    private Event requiredEvent(int s) {
        // rule U8: a transition's target is selected with the event the transition fired on, if it matches
        boolean own = s == eventTarget && targetEvent != null && required.matches(s, targetEvent.tag(), targetEvent.types(), 0);
        for (Event e : data.execs[data.agent].eventsToProcess) {
            if ((!own || e == targetEvent) && required.matches(s, e.tag(), e.types(), 0)) {
                data.testedEvent = e;
                if (nodes.testAllConditions(tree.stateEnterConditionsBegin(s), tree.stateEnterConditionsNum(s))) {
                    return e;
                }
            }
        }
        return null;
    }

    /**
     * Rule U8 ({@code unreal-5.8}): while a transition fired by {@code event} selects its target
     * {@code target}, the target's required event is tried with that event only, if it matches;
     * {@code -1, null} ends it.
     */
    void selectWithEvent(int target, Event event) {
        eventTarget = target;
        targetEvent = event;
    }

    private int eventTarget = -1;
    private Event targetEvent;

    /** Rule V3: the first event of the agent's window that matches state {@code s}'s required event, or null. */
    private Event firstMatch(ExecutionState exec, int s) {
        for (Event e : exec.eventsToProcess) {
            if (required.matches(s, e.tag(), e.types(), 0)) {
                return e;
            }
        }
        return null;
    }

    /**
     * Selects {@code nextState}: keeps the active path down to the first active state found
     * walking up from {@code nextState} (the common ancestor), pushes the states between it and
     * {@code nextState} without testing their enter conditions (Q-A6), then runs
     * {@link #selectStateInternal}.
     */
    boolean selectState(ExecutionState exec, int nextState, ActiveStates outNewActiveState) {
        if (nextState == INVALID) {
            return false;
        }
        outNewActiveState.copyFrom(exec.activeStates);

        int[] inBetweenStates = new int[CompiledStateTree.MAX_DEPTH];
        int numInBetweenStates = 0;
        int commonActiveAncestorIndex = INDEX_NONE;

        int currState = nextState;
        while (currState != INVALID) {
            inBetweenStates[numInBetweenStates++] = currState;
            commonActiveAncestorIndex = outNewActiveState.indexOfReverse(currState);
            if (commonActiveAncestorIndex != INDEX_NONE) {
                break;
            }
            if (numInBetweenStates == inBetweenStates.length) {
                // "Too many parent states when selecting state"
                return false;
            }
            currState = tree.stateParent(currState);
        }

        outNewActiveState.setNum(Math.max(0, commonActiveAncestorIndex));

        boolean activeStatesOverflow = false;
        for (int index = numInBetweenStates - 1; index > 0; index--) {
            int state = inBetweenStates[index];
            activeStatesOverflow |= !outNewActiveState.push(state);
            if (required.any && required.has(state) && !(index == numInBetweenStates - 1
                    && commonActiveAncestorIndex != INDEX_NONE)) {
                // rule V3: an in-between state that is not active needs its event (enter conditions untested, Q-A6)
                Event event = firstMatch(exec, state);
                if (event == null) {
                    return false;
                }
                outNewActiveState.setLastEvent(event);
            }
        }
        if (activeStatesOverflow) {
            // "Reached max execution depth when trying to select state"
            return false;
        }
        this.exec = exec;
        // rule X4: the states pushed above the target without being tried get the values entering gives them
        int active = exec.activeStates.isEmpty() ? INVALID : exec.activeStates.last();
        int mark = stateParameters.setAbove(data.ctx, nextState, active, data.agent);
        try {
            return selectStateInternal(nextState, outNewActiveState, NO_PATH);
        } finally {
            stateParameters.restore(data.ctx, data.agent, mark);
        }
    }

    /** SelectStateInternal, with a state's own parameters set for the time it is tried (rule X4). */
    private boolean selectStateInternal(int nextState, ActiveStates outNewActiveState, int toward) {
        if (nextState == INVALID || !stateParameters.declares(nextState)) {
            return selectStateAndBelow(nextState, outNewActiveState, toward);
        }
        int mark = stateParameters.setForSelection(data.ctx, nextState, data.agent);
        try {
            return selectStateAndBelow(nextState, outNewActiveState, toward);
        } finally {
            stateParameters.restore(data.ctx, data.agent, mark);
        }
    }

    /**
     * If {@code nextState}'s enter conditions pass, pushes it; a history state with a memory first
     * tries what it remembers (rules Y3, Y4); a {@code tryEnterState} state or a leaf is selected;
     * otherwise its children (first child {@code s + 1}, next sibling {@code stateSubtreeEnd[child]};
     * a linked state's only child is its subtree copy) are tried in order and the first that can be
     * selected wins; if none can, it is popped. {@code toward} is the last state of a deep history's
     * remembered path below {@code nextState} (rule Y4), or {@link #NO_PATH}: then only the state of
     * that path below {@code nextState} is tried.
     */
    private boolean selectStateAndBelow(int nextState, ActiveStates outNewActiveState, int toward) {
        if (nextState == INVALID || !tree.stateEnabled(nextState)) {
            return false; // rule N2: a disabled state (and so its subtree) is never selected
        }
        Event event = null;
        boolean enters;
        if (required.any && required.has(nextState)) {
            event = requiredEvent(nextState); // rule V2: checked first, then the enter conditions with it
            enters = event != null;
        } else {
            enters = nodes.testAllConditions(tree.stateEnterConditionsBegin(nextState),
                    tree.stateEnterConditionsNum(nextState));
        }
        if (enters) {
            if (!outNewActiveState.push(nextState)) {
                // "Reached max execution depth when trying to select state"
                return false;
            }
            outNewActiveState.setLastEvent(event);
            if (toward != NO_PATH && toward != nextState) {
                // rule Y4: on a deep history's remembered path nothing but the path is tried
                if (selectChild(nextState, onPathBelow(nextState, toward), outNewActiveState, toward)) {
                    return true;
                }
                outNewActiveState.pop();
                return false;
            }
            if (tree.history.has(nextState) && selectRemembered(nextState, outNewActiveState)) {
                return true; // rules Y3, Y4: what it remembers comes first
            }
            boolean hasChildren = tree.stateSubtreeEnd(nextState) > nextState + 1;
            if (tree.stateSelection(nextState) == CompiledStateTree.TRY_ENTER || !hasChildren) {
                // Select this state (deviation Q-A10: tryEnterState ends the path here).
                return true;
            }
            if (tree.stateType(nextState) == CompiledStateTree.LINKED) {
                // the private copy of the linked subtree
                if (selectChild(nextState, nextState + 1, outNewActiveState, NO_PATH)) {
                    return true;
                }
            } else {
                // declared order, or the order of the state's selection mode (random, utility)
                int[] children = childOrder.order(nextState, data.ctx, data.agent, data.seed, data.agent, data.tick);
                for (int i = 0, n = childOrder.count(nextState); i < n; i++) {
                    if (selectStateInternal(children[i], outNewActiveState, NO_PATH)) {
                        return true;
                    }
                }
            }
            outNewActiveState.pop();
        }
        return false;
    }

    /**
     * SelectStateInternal of {@code child}, a child of {@code parent}; a linked parent's subtree copy
     * is selected with the parameters the linked state gives it, put back afterwards (rule L3).
     */
    private boolean selectChild(int parent, int child, ActiveStates outNewActiveState, int toward) {
        if (tree.stateType(parent) != CompiledStateTree.LINKED) {
            return selectStateInternal(child, outNewActiveState, toward);
        }
        int mark = linkedParameters.setForSelection(data.ctx, parent, data.agent);
        try {
            return selectStateInternal(child, outNewActiveState, toward);
        } finally {
            linkedParameters.restore(data.ctx, parent, data.agent, mark);
        }
    }

    /**
     * Rules Y3, Y4: history state {@code h}, pushed, tries what it remembers: the remembered child
     * and that child's own selection (shallow), or the remembered path down to its last state (deep).
     * False when it remembers nothing, when it is on the active path (a selection of an active state
     * is not a return to it: its own selection applies), or when what it remembers cannot be
     * selected (then its own selection applies).
     */
    private boolean selectRemembered(int h, ActiveStates outNewActiveState) {
        if (exec.activeStates.indexOfReverse(h) != INDEX_NONE) {
            return false;
        }
        int remembered = data.history[tree.history.index(h)][data.agent];
        if (remembered == HistoryStates.NO_MEMORY) {
            return false;
        }
        if (tree.history.kind(h) == HistoryStates.SHALLOW) {
            return selectStateInternal(remembered, outNewActiveState, NO_PATH);
        }
        return selectStateInternal(onPathBelow(h, remembered), outNewActiveState, remembered);
    }

    /** The child of {@code s} on the path from {@code s} down to {@code below} (a state below it). */
    private int onPathBelow(int s, int below) {
        int child = below;
        while (tree.stateParent(child) != s) {
            child = tree.stateParent(child);
        }
        return child;
    }
}
