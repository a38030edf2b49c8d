package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.SUCCEEDED_HANDLE;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.node.RunStatus;

/**
 * TriggerTransitions of a tree under {@code "rules": "unreal-5.8"} (docs/SEMANTICS.md section 20),
 * as Unreal 5.8's {@code FStateTreeExecutionContext::TriggerTransitions} does it. Phase one scans
 * the tick and event transitions of the active states leaf to root (rule U7), the ones below the
 * completed state failing (U3); a delayed transition arms once and fires when its delay has run out
 * without being tested again, and a waiting one does not stop the scan (U4). Phase two, when
 * nothing was requested and a state completed, scans the completion transitions from the completed
 * state up, then restarts from the root. A {@code @succeeded}/{@code @failed} inside a linked
 * subtree completes its linked state, and both phases run again from there (U2). An onEvent
 * transition's target is selected with the transition's event (U8).
 */
final class UnrealScan {
    private static final int MAX_PRIORITY = Vocabulary.Priority.CRITICAL.code();
    private static final int NORMAL = Vocabulary.Priority.NORMAL.code();

    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final Transitions transitions;

    // The scan in progress: the completion and the index of the completed state on the path
    // (MAX_DEPTH without one), the best priority found and whether what it found fires.
    private byte completion;
    private int completedIndex;
    private int best;
    private boolean fires;

    UnrealScan(InterpreterData data, Transitions transitions) {
        this.data = data;
        this.tree = data.tree;
        this.transitions = transitions;
    }

    /** Fills {@code out} and returns true when a transition fires (or the tree restarts). */
    boolean trigger(ExecutionState exec, TransitionResult out) {
        completion = exec.lastTickStatus;
        completedIndex = RunStatus.isCompletion(completion) ? exec.completedIndex : CompiledStateTree.MAX_DEPTH;
        int top = exec.activeStates.num - 1;
        boolean first = true;
        while (true) {
            best = -1;
            fires = false;
            if (first && transitions.takeRequest(exec, out, completedIndex)) {
                best = out.requestPriority; // rule O2: found before phase one
                fires = true;
            }
            first = false;
            tickAndEventTransitions(exec, out, top);
            if (best < 0 && RunStatus.isCompletion(completion)) {
                completionTransitions(exec, out);
                if (best < 0) {
                    out.changedFrom = completedIndex; // rule U3
                    transitions.restart(exec, out);
                    noteWhy(out);
                    return true;
                }
            }
            int linked = fires && out.targetState < 0 ? tree.unreal.linkedAncestor(tree.transitionSource(out.transitionIndex)) : -1;
            if (linked < 0) {
                out.changedFrom = RunStatus.isCompletion(completion) ? completedIndex : CompiledStateTree.MAX_DEPTH;
                noteWhy(out);
                return fires;
            }
            // Rule U2: the linked state above completes; both phases run again from it.
            int tr = out.transitionIndex;
            if (tree.transitionTrigger(tr) == CompiledStateTree.TRIGGER_EVENT && tree.transitionConsumesEvent(tr)
                    && !out.byArmedGate) {
                Transitions.consumeEvent(tree, exec, tr); // its event was used, as if it had fired
            }
            completion = out.targetState == SUCCEEDED_HANDLE ? RunStatus.SUCCEEDED : RunStatus.FAILED;
            completedIndex = tree.stateDepth(linked);
            data.trace(TraceFormat.stateCompleted(data.tick, tree, linked, completion));
            top = completedIndex;
        }
    }

    /** The completion the scan ran with, for the why line of what it decided (section 10). */
    private void noteWhy(TransitionResult out) {
        out.whyCompletion = completion;
        out.whyCompletedIndex = completedIndex;
    }

    /**
     * Phase one (rule U7): the tick and event transitions of the states at path indices
     * {@code top} down to 0, each state's in declared order, ranked by priority (P1).
     */
    private void tickAndEventTransitions(ExecutionState exec, TransitionResult out, int top) {
        for (int index = top; index >= 0; index--) {
            int state = exec.activeStates.get(index);
            boolean sourceFails = index > completedIndex; // rule U3: a completed state above it
            int begin = tree.stateTransitionsBegin(state);
            for (int tr = begin; tr < begin + tree.stateTransitionsNum(state); tr++) {
                int priority = tree.transitionPriority(tr);
                int trigger = tree.transitionTrigger(tr);
                if (priority <= best || (trigger & CompiledStateTree.TRIGGER_COMPLETED) != 0) {
                    continue;
                }
                if (tree.isGated(tr) && exec.gatedTransitionIndex == tree.transitionGateKey(tr)) {
                    if (exec.gatedTransitionTime > 0f) {
                        continue; // rule U4: waiting, without stopping the scan; a new trigger is ignored
                    }
                    exec.gatedTransitionIndex = INVALID; // the delay ran out: spent
                    exec.gatedTransitionTime = 0f;
                    int fired = INVALID; // the states a selectable target tries, in order (J2, J5)
                    for (int m = tr; m < tree.transitionGroupEnd(tr) && fired == INVALID && !sourceFails; m++) {
                        fired = fire(exec, out, m, true) ? m : INVALID;
                    }
                    if (fired != INVALID) {
                        if (found(priority)) {
                            return;
                        }
                        continue;
                    }
                    // its target cannot be selected: it is evaluated as any other transition
                }
                boolean triggered = trigger == CompiledStateTree.TRIGGER_TICK
                        || (trigger == CompiledStateTree.TRIGGER_EVENT && transitions.nextMatch(exec, -1, tr) >= 0);
                if (!triggered || !transitions.conditionsPass(exec, tr)) {
                    continue;
                }
                if (tree.isGated(tr)) {
                    if (exec.gatedTransitionIndex != INVALID) {
                        continue; // one pending delay per agent: another one holds it
                    }
                    float delay = tree.gateDelay(tr, data.seed, data.agent, data.tick);
                    if (delay > 0f) {
                        exec.gatedTransitionIndex = tree.transitionGateKey(tr); // rule U4: armed; fires when the delay has run out
                        exec.gatedTransitionTime = delay;
                        continue;
                    }
                }
                if (!sourceFails && fire(exec, out, tr, false) && found(priority)) {
                    return;
                }
            }
        }
    }

    /** A transition of priority {@code priority} was found; true when nothing can outrank it. */
    private boolean found(int priority) {
        best = priority;
        return best == MAX_PRIORITY;
    }

    /**
     * Phase two (rule U7): the completion transitions matching the completion, from the completed
     * state up, each state's in declared order; the first that passes and can be selected decides.
     */
    private void completionTransitions(ExecutionState exec, TransitionResult out) {
        int completionTrigger = completion == RunStatus.SUCCEEDED ? CompiledStateTree.TRIGGER_SUCCEEDED
                : CompiledStateTree.TRIGGER_FAILED;
        for (int index = completedIndex; index >= 0; index--) {
            int state = exec.activeStates.get(index);
            int begin = tree.stateTransitionsBegin(state);
            for (int tr = begin; tr < begin + tree.stateTransitionsNum(state); tr++) {
                if ((tree.transitionTrigger(tr) & completionTrigger) != 0 && transitions.conditionsPass(exec, tr)
                        && fire(exec, out, tr, false)) {
                    best = NORMAL;
                    return;
                }
            }
        }
    }

    /**
     * Transition {@code tr} fires if it can: a state target must be selectable (then {@code out}
     * holds it), {@code @none} requests nothing (found, no transition), {@code @succeeded} and
     * {@code @failed} always can. Returns whether it was found.
     */
    private boolean fire(ExecutionState exec, TransitionResult out, int tr, boolean byArmedGate) {
        byte type = tree.transitionType(tr);
        if (type == CompiledStateTree.GOTO) {
            if (!transitions.trySelectUnreal(exec, tr, out, byArmedGate)) {
                return false;
            }
            fires = true;
        } else if (type == CompiledStateTree.NOT_SET) {
            fires = false;
            return true;
        } else {
            transitions.terminal(exec, out, tr);
            fires = true;
        }
        out.byArmedGate = byArmedGate;
        return true;
    }
}
