package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.FAILED_HANDLE;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.SUCCEEDED_HANDLE;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.node.RunStatus;

/**
 * {@code TriggerTransitions} (docs/SEMANTICS.md section 4): scans the transitions of the active
 * states leaf to root (root to leaf in a tree scanned root first, rule H2) for the first one to
 * fire. A transition is checked when its trigger matches the completion of the last tick, is
 * {@code onTick}, or is {@code onEvent} with its event in this tick's {@code EventsToProcess}
 * (section 8); its conditions must pass; a gated one arms its gate and blocks the scan while the
 * gate is closed (Q-A5); {@code @none} masks the transitions after it in the scan (Q-A4). Blocking
 * and masking hold only against transitions of no higher priority: the scan skips a transition
 * whose priority is not above the best found so far, and the best found decides. A completed state
 * with nothing to fire restarts from the root (failing cleanly when no state can be selected,
 * Q-A9). A composite state on the way applies its rule to a completion of its active child before
 * its own transitions (section 4.1, rules K3-K6): it fires a transition to a later sibling at normal
 * priority, or completes itself, which the scan goes on with. Also consumes the event of an
 * {@code onEvent} transition that fired.
 */
final class Transitions {
    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final NodeCalls nodes;
    private final StateSelection selection;
    /** A candidate GOTO transition while its target is selected (the best one so far stays in the result). */
    private final TransitionResult trial = new TransitionResult();
    private static final int MAX_PRIORITY = Vocabulary.Priority.CRITICAL.code();
    /** The priority a composite's rule fires at (rule K3). */
    private static final int NORMAL = Vocabulary.Priority.NORMAL.code();

    /** The scan of a tree under {@code "rules": "unreal-5.8"} (rules U2-U8). */
    private final UnrealScan unrealScan;

    Transitions(InterpreterData data, NodeCalls nodes, StateSelection selection) {
        this.data = data;
        this.tree = data.tree;
        this.nodes = nodes;
        this.selection = selection;
        this.unrealScan = new UnrealScan(data, this);
    }

    /** Fills {@code outTransition} and returns true when a transition fires (or the tree restarts). */
    boolean triggerTransitions(ExecutionState exec, TransitionResult outTransition) {
        if (tree.unreal.on) {
            return unrealScan.trigger(exec, outTransition); // docs/SEMANTICS.md section 20
        }
        // The completion and its completed state; a composite's rule may change both (rule K6).
        byte completion = exec.lastTickStatus;
        int completedIndex = exec.completedIndex;
        // The best transition found so far, by priority (section 4): a later one counts only when its
        // priority is strictly higher, so with every priority normal the first one found decides.
        int best = -1;
        boolean fires = false;
        if (takeRequest(exec, outTransition, CompiledStateTree.MAX_DEPTH)) {
            best = outTransition.requestPriority; // rule O2: found before the states' transitions
            fires = true;
        }
        final int num = exec.activeStates.num;
        final boolean rootFirst = tree.scanRules.rootFirst;
        scan:
        for (int step = 0; step < num; step++) {
            // leaf to root (A8.3), or root to leaf in a tree scanned root first (rule H2)
            int stateIndex = rootFirst ? step : num - 1 - step;
            int state = exec.activeStates.get(stateIndex);
            if (tree.scanRules.isComposite(state) && RunStatus.isCompletion(completion) && completedIndex > stateIndex
                    && NORMAL > best) {
                // Rule K3: a child of the composite completed and nothing below handled it.
                byte outcome = compositeRule(exec, state, exec.activeStates.get(stateIndex + 1), completion,
                        outTransition);
                if (outcome == RunStatus.RUNNING) {
                    best = NORMAL; // it fired, found at normal priority (P1)
                    fires = true;
                } else {
                    // Rule K6: the composite completes; the scan goes on at it with its outcome.
                    data.trace(TraceFormat.stateCompleted(data.tick, tree, state, outcome));
                    completion = outcome;
                    completedIndex = stateIndex;
                }
            }
            int completionTrigger = completion == RunStatus.SUCCEEDED ? CompiledStateTree.TRIGGER_SUCCEEDED
                    : completion == RunStatus.FAILED ? CompiledStateTree.TRIGGER_FAILED : 0;
            int begin = tree.stateTransitionsBegin(state);
            for (int i = 0; i < tree.stateTransitionsNum(state); i++) {
                int transitionIndex = begin + i;
                int priority = tree.transitionPriority(transitionIndex);
                if (priority <= best) {
                    continue; // not evaluated; a gate it holds keeps running
                }
                int trigger = tree.transitionTrigger(transitionIndex);
                // Completion is scoped: only the completed state and its ancestors see it.
                boolean shouldCheck = ((trigger & completionTrigger) != 0 && stateIndex <= completedIndex)
                        || trigger == CompiledStateTree.TRIGGER_TICK
                        || (trigger == CompiledStateTree.TRIGGER_EVENT
                        && nextMatch(exec, -1, transitionIndex) >= 0);

                if (shouldCheck && conditionsPass(exec, transitionIndex)) {
                    if (tree.isGated(transitionIndex)) {
                        // one gate per declared transition: the states a selectable target tries share it
                        int gate = tree.transitionGateKey(transitionIndex);
                        if (exec.gatedTransitionIndex != gate) {
                            exec.gatedTransitionIndex = gate;
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

                    byte type = tree.transitionType(transitionIndex);
                    if (type == CompiledStateTree.GOTO) {
                        if (!trySelect(exec, tree.transitionTarget(transitionIndex), transitionIndex, outTransition)) {
                            continue;
                        }
                        fires = true;
                    } else if (type == CompiledStateTree.NOT_SET) {
                        // Masks the later transitions of no higher priority (and the restart from root: Q-A4).
                        fires = false;
                    } else {
                        terminal(exec, outTransition, transitionIndex);
                        fires = true;
                    }
                    best = priority;
                    if (best == MAX_PRIORITY) {
                        break scan;
                    }
                } else if (tree.isGated(transitionIndex) && exec.gatedTransitionIndex == tree.transitionGateKey(transitionIndex)) {
                    exec.gatedTransitionIndex = INVALID;
                    exec.gatedTransitionTime = 0f;
                }
            }
        }
        outTransition.whyCompletion = completion;
        outTransition.whyCompletedIndex = completedIndex;
        if (best >= 0) {
            return fires;
        }

        if (exec.lastTickStatus != RunStatus.RUNNING) {
            restart(exec, outTransition);
            return true;
        }
        return false;
    }

    /**
     * The agent's pending transition request (rules O1-O4), taken (it is tried once): true when its
     * state can be selected, with {@code out} holding it ({@link TransitionResult#REQUEST}); false
     * too when the task that made it is in a state deeper than path index {@code failsBelow} (rule
     * U3 under {@code unreal-5.8}: the completed state's).
     */
    boolean takeRequest(ExecutionState exec, TransitionResult out, int failsBelow) {
        if (exec.requestState == INVALID) {
            return false;
        }
        int target = exec.requestState;
        int priority = exec.requestPriority;
        exec.requestState = INVALID;
        if (exec.requestSourceDepth > failsBelow) {
            return false; // rule U3: its task's state is below the completed state
        }
        if (!trySelect(exec, target, TransitionResult.REQUEST, out)) {
            return false;
        }
        out.requestPriority = priority;
        return true;
    }

    /** {@code @succeeded} or {@code @failed} transition {@code tr} into {@code out}: the path ends in its handle. */
    void terminal(ExecutionState exec, TransitionResult out, int tr) {
        short handle = tree.transitionType(tr) == CompiledStateTree.TO_SUCCEEDED ? SUCCEEDED_HANDLE : FAILED_HANDLE;
        out.currentActiveStates.copyFrom(exec.activeStates);
        out.targetState = handle;
        out.nextActiveStates.reset();
        out.nextActiveStates.push(handle);
        out.transitionIndex = tr;
    }

    /** The restart from the root into {@code out} (section 4; a root that cannot be selected fails cleanly, Q-A9). */
    void restart(ExecutionState exec, TransitionResult out) {
        final int rootState = 0;
        out.currentActiveStates.copyFrom(exec.activeStates);
        out.targetState = rootState;
        out.nextActiveStates.reset();
        out.transitionIndex = -1;
        if (!selection.selectState(exec, rootState, out.nextActiveStates)) {
            out.restartFailed = true;
            out.nextActiveStates.reset();
        }
    }

    /**
     * The rule of composite {@code composite} whose active child {@code child} (or a state below it)
     * completed with {@code completion} (rules K4, K5): the siblings after the child that the rule
     * tries ({@link dev.crowdtree.statetree.compiled.ScanRules#siblingsToTry}) are selected in
     * declared order, and the first that can be is the target of the transition it fires (into
     * {@code out}); then RUNNING is returned. Otherwise the status the composite completes with:
     * {@code completion} when it tries none or the child is the last, FAILED when none of those it
     * tried could be selected.
     */
    private byte compositeRule(ExecutionState exec, int composite, int child, byte completion, TransitionResult out) {
        int tries = tree.scanRules.siblingsToTry(composite, completion);
        int end = tree.stateSubtreeEnd(composite);
        int sibling = tree.stateSubtreeEnd(child); // the next sibling (DFS pre-order), or the composite's end
        if (tries == 0 || sibling >= end) {
            return completion;
        }
        for (int tried = 0; tried < tries && sibling < end; tried++, sibling = tree.stateSubtreeEnd(sibling)) {
            if (trySelect(exec, sibling, TransitionResult.COMPOSITE_RULE, out)) {
                return RunStatus.RUNNING;
            }
        }
        return RunStatus.FAILED;
    }

    /**
     * SelectState({@code target}) for a transition ({@code transitionIndex}, or
     * {@link TransitionResult#COMPOSITE_RULE}) that would go there: on success {@code out} holds it
     * and true is returned; otherwise {@code out} is left as it was (it may hold the best transition
     * found so far).
     */
    /**
     * {@link #trySelect} for transition {@code tr} of a tree under {@code unreal-5.8}: an onEvent
     * transition's target is selected with the event it fired on (rule U8).
     */
    boolean trySelectUnreal(ExecutionState exec, int tr, TransitionResult out, boolean byArmedGate) {
        int target = tree.transitionTarget(tr);
        if (byArmedGate || tree.transitionTrigger(tr) != CompiledStateTree.TRIGGER_EVENT) {
            return trySelect(exec, target, tr, out);
        }
        selection.selectWithEvent(target, firedEvent(exec, tr));
        try {
            return trySelect(exec, target, tr, out);
        } finally {
            selection.selectWithEvent(-1, null);
        }
    }

    boolean trySelect(ExecutionState exec, int target, int transitionIndex, TransitionResult out) {
        trial.currentActiveStates.copyFrom(exec.activeStates);
        trial.targetState = target;
        trial.nextActiveStates.reset();
        if (!selection.selectState(exec, target, trial.nextActiveStates)) {
            return false;
        }
        trial.transitionIndex = transitionIndex;
        out.copyFrom(trial);
        return true;
    }

    /**
     * The transition's conditions; for an onEvent transition with payload fields (rule E3), the
     * matching events are tried in queue order until one passes, and that one is remembered as the
     * event to consume.
     */
    boolean conditionsPass(ExecutionState exec, int tr) {
        int begin = tree.transitionConditionsBegin(tr);
        int num = tree.transitionConditionsNum(tr);
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

    /**
     * The event onEvent transition {@code tr} fired on: the chosen one when {@code tr} reads a
     * payload, else its first match.
     */
    Event firedEvent(ExecutionState exec, int tr) {
        return tree.payloads.readsPayload(tr) ? exec.chosenEvent : exec.eventsToProcess.get(nextMatch(exec, -1, tr));
    }

    /** The index of the first event after {@code after} in {@code EventsToProcess} that transition {@code tr} matches, or -1. */
    int nextMatch(ExecutionState exec, int after, int tr) {
        return nextMatch(tree, exec, after, tr);
    }

    private static int nextMatch(CompiledStateTree tree, ExecutionState exec, int after, int tr) {
        for (int i = after + 1; i < exec.eventsToProcess.size(); i++) {
            Event e = exec.eventsToProcess.get(i);
            if (tree.tagMatches(tree.transitionEvent(tr), e.tag())
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
