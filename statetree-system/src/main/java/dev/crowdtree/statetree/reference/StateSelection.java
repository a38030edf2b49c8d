package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.ChildOrder;
import dev.crowdtree.statetree.internal.LinkedParameters;
import dev.crowdtree.statetree.internal.StateParameterValues;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INDEX_NONE;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;

/**
 * {@code SelectState} and {@code SelectStateInternal} (docs/SEMANTICS.md section 5): which path of
 * states a transition to a state (or the start, or the restart from root) would make active. It
 * keeps the active path down to the common ancestor, pushes the states between it and the target
 * without their enter conditions (Q-A6), then selects down from the target: enter conditions, a
 * {@code tryEnterState} state ends the path (Q-A10), otherwise the first child that can be selected,
 * in the order of the state's selection mode ({@link ChildOrder}: declared, random or by utility; a
 * {@code sequence} composite only through its first child, rule K2; a linked state's only child is
 * its private subtree copy, Q-A7, selected with the linked state's parameters written into the copy
 * for the time of that selection, rule L3; a state's own parameters, and those of the states pushed
 * above the target, hold the values entering would give them while it is tried, rule X4).
 */
final class StateSelection {
    private final CompiledStateTree tree;
    private final InterpreterData data;
    private final NodeCalls nodes;
    private final ChildOrder childOrder;
    private final LinkedParameters linkedParameters;
    private final StateParameterValues stateParameters;

    StateSelection(InterpreterData data, NodeCalls nodes, LinkedParameters linkedParameters) {
        this.tree = data.tree;
        this.data = data;
        this.nodes = nodes;
        this.childOrder = new ChildOrder(data.tree);
        this.linkedParameters = linkedParameters;
        this.stateParameters = new StateParameterValues(data.tree);
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
            currState = tree.stateParent[currState];
        }

        outNewActiveState.setNum(Math.max(0, commonActiveAncestorIndex));

        boolean activeStatesOverflow = false;
        for (int index = numInBetweenStates - 1; index > 0; index--) {
            activeStatesOverflow |= !outNewActiveState.push(inBetweenStates[index]);
        }
        if (activeStatesOverflow) {
            // "Reached max execution depth when trying to select state"
            return false;
        }
        // rule X4: the states pushed above the target without being tried get the values entering gives them
        int active = exec.activeStates.isEmpty() ? INVALID : exec.activeStates.last();
        int mark = stateParameters.setAbove(data.ctx, nextState, active, data.agent);
        try {
            return selectStateInternal(nextState, outNewActiveState);
        } finally {
            stateParameters.restore(data.ctx, data.agent, mark);
        }
    }

    /** SelectStateInternal, with a state's own parameters set for the time it is tried (rule X4). */
    private boolean selectStateInternal(int nextState, ActiveStates outNewActiveState) {
        if (nextState == INVALID || !stateParameters.declares(nextState)) {
            return selectStateAndBelow(nextState, outNewActiveState);
        }
        int mark = stateParameters.setForSelection(data.ctx, nextState, data.agent);
        try {
            return selectStateAndBelow(nextState, outNewActiveState);
        } finally {
            stateParameters.restore(data.ctx, data.agent, mark);
        }
    }

    /**
     * If {@code nextState}'s enter conditions pass, pushes it; a {@code tryEnterState} state or a
     * leaf is selected; otherwise its children (first child {@code s + 1}, next sibling
     * {@code stateSubtreeEnd[child]}; a linked state's only child is its subtree copy) are tried in
     * order and the first that can be selected wins; if none can, it is popped.
     */
    private boolean selectStateAndBelow(int nextState, ActiveStates outNewActiveState) {
        if (nextState == INVALID || !tree.stateEnabled[nextState]) {
            return false; // rule N2: a disabled state (and so its subtree) is never selected
        }
        if (nodes.testAllConditions(tree.stateEnterConditionsBegin[nextState],
                tree.stateEnterConditionsNum[nextState])) {
            if (!outNewActiveState.push(nextState)) {
                // "Reached max execution depth when trying to select state"
                return false;
            }
            boolean hasChildren = tree.stateSubtreeEnd[nextState] > nextState + 1;
            if (tree.stateSelection[nextState] == CompiledStateTree.TRY_ENTER || !hasChildren) {
                // Select this state (deviation Q-A10: tryEnterState ends the path here).
                return true;
            }
            if (tree.stateType[nextState] == CompiledStateTree.LINKED) {
                int linkedState = nextState + 1; // the private copy of the linked subtree
                // rule L3: the copy is selected with the parameters the linked state gives it
                int mark = linkedParameters.setForSelection(data.ctx, nextState, data.agent);
                boolean selected;
                try {
                    selected = selectStateInternal(linkedState, outNewActiveState);
                } finally {
                    linkedParameters.restore(data.ctx, nextState, data.agent, mark);
                }
                if (selected) {
                    return true;
                }
            } else {
                // declared order, or the order of the state's selection mode (random, utility)
                int[] children = childOrder.order(nextState, data.ctx, data.agent, data.seed, data.agent, data.tick);
                for (int i = 0, n = childOrder.count(nextState); i < n; i++) {
                    if (selectStateInternal(children[i], outNewActiveState)) {
                        return true;
                    }
                }
            }
            outNewActiveState.pop();
        }
        return false;
    }
}
