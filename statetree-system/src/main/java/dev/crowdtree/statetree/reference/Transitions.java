package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.FAILED_HANDLE;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.SUCCEEDED_HANDLE;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.node.RunStatus;

/**
 * {@code TriggerTransitions} (docs/SEMANTICS.md section 4): scans the transitions of the active
 * states leaf to root for the first one to fire. A transition is checked when its trigger matches
 * the completion of the last tick, is {@code onTick}, or is {@code onEvent} with its event in this
 * tick's {@code EventsToProcess} (section 8); its conditions must pass; a gated one arms its gate
 * and blocks the scan while the gate is closed (Q-A5); {@code @none} masks the ancestors'
 * transitions (Q-A4). Blocking and masking hold only against transitions of no higher priority: the
 * scan skips a transition whose priority is not above the best found so far, and the best found
 * decides. A completed state with nothing to fire restarts from the root (failing
 * cleanly when no state can be selected, Q-A9). Also consumes the event of an {@code onEvent}
 * transition that fired.
 */
final class Transitions {
    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final NodeCalls nodes;
    private final StateSelection selection;
    /** A candidate GOTO transition while its target is selected (the best one so far stays in the result). */
    private final TransitionResult trial = new TransitionResult();
    private static final int MAX_PRIORITY = Vocabulary.Priority.CRITICAL.code();

    Transitions(InterpreterData data, NodeCalls nodes, StateSelection selection) {
        this.data = data;
        this.tree = data.tree;
        this.nodes = nodes;
        this.selection = selection;
    }

    /** Fills {@code outTransition} and returns true when a transition fires (or the tree restarts). */
    boolean triggerTransitions(ExecutionState exec, TransitionResult outTransition) {
        int completionTrigger = 0;
        if (exec.lastTickStatus == RunStatus.SUCCEEDED) {
            completionTrigger = CompiledStateTree.TRIGGER_SUCCEEDED;
        } else if (exec.lastTickStatus == RunStatus.FAILED) {
            completionTrigger = CompiledStateTree.TRIGGER_FAILED;
        }

        // The best transition found so far, by priority (section 4): a later one counts only when its
        // priority is strictly higher, so with every priority normal the first one found decides.
        int best = -1;
        boolean fires = false;
        scan:
        for (int stateIndex = exec.activeStates.num - 1; stateIndex >= 0; stateIndex--) {
            int state = exec.activeStates.get(stateIndex);
            int begin = tree.stateTransitionsBegin[state];
            for (int i = 0; i < tree.stateTransitionsNum[state]; i++) {
                int transitionIndex = begin + i;
                int priority = tree.transitionPriority[transitionIndex];
                if (priority <= best) {
                    continue; // not evaluated; a gate it holds keeps running
                }
                int trigger = tree.transitionTrigger[transitionIndex];
                // Completion is scoped: only the completed state and its ancestors see it.
                boolean shouldCheck = ((trigger & completionTrigger) != 0 && stateIndex <= exec.completedIndex)
                        || trigger == CompiledStateTree.TRIGGER_TICK
                        || (trigger == CompiledStateTree.TRIGGER_EVENT
                        && nextMatch(exec, -1, transitionIndex) >= 0);

                if (shouldCheck && conditionsPass(exec, transitionIndex)) {
                    if (tree.isGated(transitionIndex)) {
                        if (exec.gatedTransitionIndex != transitionIndex) {
                            exec.gatedTransitionIndex = transitionIndex;
                            exec.gatedTransitionTime = tree.gateDelay(transitionIndex, data.seed, data.agent, data.tick);
                        }
                        if (exec.gatedTransitionTime > 0f) {
                            // Keep ticking the current state until the gate opens (Q-A5: found, no transition).
                            best = priority;
                            fires = false;
                            if (best == MAX_PRIORITY) {
                                break scan;
                            }
                            continue;
                        }
                    }

                    byte type = tree.transitionType[transitionIndex];
                    if (type == CompiledStateTree.GOTO) {
                        trial.currentActiveStates.copyFrom(exec.activeStates);
                        trial.targetState = tree.transitionTarget[transitionIndex];
                        trial.nextActiveStates.reset();
                        if (!selection.selectState(exec, trial.targetState, trial.nextActiveStates)) {
                            continue;
                        }
                        trial.transitionIndex = transitionIndex;
                        outTransition.copyFrom(trial);
                        fires = true;
                    } else if (type == CompiledStateTree.NOT_SET) {
                        // Masks the transitions of ancestors of no higher priority (and the restart from root: Q-A4).
                        fires = false;
                    } else {
                        short handle = type == CompiledStateTree.TO_SUCCEEDED ? SUCCEEDED_HANDLE : FAILED_HANDLE;
                        outTransition.currentActiveStates.copyFrom(exec.activeStates);
                        outTransition.targetState = handle;
                        outTransition.nextActiveStates.reset();
                        outTransition.nextActiveStates.push(handle);
                        outTransition.transitionIndex = transitionIndex;
                        fires = true;
                    }
                    best = priority;
                    if (best == MAX_PRIORITY) {
                        break scan;
                    }
                } else if (exec.gatedTransitionIndex == transitionIndex) {
                    exec.gatedTransitionIndex = INVALID;
                    exec.gatedTransitionTime = 0f;
                }
            }
        }
        if (best >= 0) {
            return fires;
        }

        if (exec.lastTickStatus != RunStatus.RUNNING) {
            // Restart the tree from the root.
            final int rootState = 0;
            outTransition.currentActiveStates.copyFrom(exec.activeStates);
            outTransition.targetState = rootState;
            outTransition.nextActiveStates.reset();
            outTransition.transitionIndex = -1;
            if (!selection.selectState(exec, rootState, outTransition.nextActiveStates)) {
                outTransition.restartFailed = true;
                outTransition.nextActiveStates.reset();
            }
            return true;
        }
        return false;
    }

    /**
     * The transition's conditions; for an onEvent transition with payload fields (rule E3), the
     * matching events are tried in queue order until one passes, and that one is remembered as the
     * event to consume.
     */
    private boolean conditionsPass(ExecutionState exec, int tr) {
        int begin = tree.transitionConditionsBegin[tr];
        int num = tree.transitionConditionsNum[tr];
        if (!tree.payloads.readsPayload(tr)) {
            return nodes.testAllConditions(begin, num);
        }
        for (int i = nextMatch(exec, -1, tr); i >= 0; i = nextMatch(exec, i, tr)) {
            data.testedEvent = exec.eventsToProcess.get(i);
            if (nodes.testAllConditions(begin, num)) {
                exec.chosenEvent = data.testedEvent;
                return true;
            }
        }
        return false;
    }

    /** The index of the first event after {@code after} in {@code EventsToProcess} that transition {@code tr} matches, or -1. */
    private int nextMatch(ExecutionState exec, int after, int tr) {
        return nextMatch(tree, exec, after, tr);
    }

    private static int nextMatch(CompiledStateTree tree, ExecutionState exec, int after, int tr) {
        for (int i = after + 1; i < exec.eventsToProcess.size(); i++) {
            Event e = exec.eventsToProcess.get(i);
            if (tree.tagMatches(tree.transitionEvent[tr], e.tag())
                    && (!tree.payloads.readsPayload(tr) || tree.payloads.matches(tr, e.types(), 0))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Removes the event that fired transition {@code tr} from {@code EventsToProcess}: the one whose
     * payload passed its conditions, or the first one it matches.
     */
    static void consumeEvent(CompiledStateTree tree, ExecutionState exec, int tr) {
        if (tree.payloads.readsPayload(tr)) {
            if (!exec.eventsToProcess.remove(exec.chosenEvent)) {
                throw new IllegalStateException("an onEvent transition fired without its event");
            }
            return;
        }
        int i = nextMatch(tree, exec, -1, tr);
        if (i < 0) {
            throw new IllegalStateException("an onEvent transition fired without its event");
        }
        exec.eventsToProcess.remove(i);
    }
}
