package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.node.RunStatus;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.TO_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_COMPLETED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_EVENT;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_SUCCEEDED;
import static dev.crowdtree.statetree.exec.Decisions.BY_ARMED_GATE;
import static dev.crowdtree.statetree.exec.Decisions.RESTART;

/**
 * TriggerTransitions for one agent of a tree under {@code "rules": "unreal-5.8"} (docs/SEMANTICS.md
 * section 20), every round of such a tree: phase one scans the tick and event transitions leaf to
 * root (rule U7), the ones below the completed state failing (U3); a delayed transition arms once,
 * and fires when its delay has run out without being tested again, and a waiting one does not stop
 * the scan (U4). Phase two, when nothing was found and a state completed, scans the completion
 * transitions from the completed state up, then restarts from the root. A {@code @succeeded} or
 * {@code @failed} inside a linked subtree completes its linked state, and both phases run again from
 * there (U2). An onEvent transition's target is selected with the transition's event (U8). The
 * reference interpreter's {@code UnrealScan} is the per-agent model of the same rules.
 *
 * <p>Allocation: none. THREADING: confined to its worker.
 */
final class UnrealAgentScan {
    private static final int MAX_PRIORITY = Vocabulary.Priority.CRITICAL.code();
    private static final int NORMAL = Vocabulary.Priority.NORMAL.code();

    private final ChunkBinding st;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final TransitionScan scan;

    // The scan in progress: the completion, the depth of the completed state (MAX_DEPTH without
    // one), the best priority found, what it decides, and whether the scan stopped.
    private byte completion;
    private int doneDepth;
    private int best;
    private long result;
    private boolean stopped;
    /** After {@link #trigger}: the depth from which the transition found exits and enters states as changed (rule U3). */
    int changedFrom;

    UnrealAgentScan(ChunkBinding state, NodeFaults faults, TransitionScan scan) {
        this.st = state;
        this.faults = faults;
        this.t = state.t;
        this.scan = scan;
    }

    /**
     * TriggerTransitions for row {@code r}: returns a {@link ScanResult}, the transition flagged
     * {@link Decisions#BY_ARMED_GATE} when its delay ran out, {@link Decisions#RESTART} for the
     * restart from the root, or {@link AgentScan#NONE}.
     */
    long trigger(int r) {
        completion = st.lastOf(r);
        doneDepth = RunStatus.isCompletion(completion) ? st.done[r] - 1 : CompiledStateTree.MAX_DEPTH;
        final int cur = st.stateOf(r) - 1;
        int top = cur;
        while (true) {
            best = -1;
            result = AgentScan.NONE;
            stopped = false;
            if (top == cur && st.request != null && st.request[r] != 0) {
                long requested = scan.takeRequest(r, doneDepth); // rule O2: before phase one; U3
                if (faults.isFaulted(r - st.base)) {
                    return AgentScan.NONE;
                }
                if (requested != AgentScan.NONE) {
                    best = scan.requestPriority;
                    result = requested;
                    stopped = best == MAX_PRIORITY;
                }
            }
            if (!stopped) {
                tickAndEventTransitions(r, top);
            }
            if (!stopped && best < 0 && RunStatus.isCompletion(completion)) {
                completionTransitions(r, cur);
            }
            if (faults.isFaulted(r - st.base)) {
                return AgentScan.NONE; // a condition threw: the agent fails (rule R1)
            }
            changedFrom = RunStatus.isCompletion(completion) ? doneDepth : CompiledStateTree.MAX_DEPTH;
            if (best < 0) {
                if (!RunStatus.isCompletion(completion)) {
                    return AgentScan.NONE;
                }
                long restart = ScanResult.of(RESTART, scan.selection.selectInternal(r, 0));
                return faults.isFaulted(r - st.base) ? AgentScan.NONE : restart;
            }
            int fired = result == AgentScan.NONE ? -1 : ScanResult.transition(result);
            int tr = Decisions.withoutGateFlag(fired);
            int linked = tr >= 0 && t.transitionType(tr) >= TO_SUCCEEDED ? t.unreal.linkedAncestor(t.transitionSource(tr)) : -1;
            if (linked < 0) {
                return result;
            }
            // Rule U2: the linked state above completes; both phases run again from it.
            if (t.transitionTrigger(tr) == TRIGGER_EVENT && t.transitionConsumesEvent(tr)
                    && !Decisions.byArmedGate(fired)) {
                scan.consumeEvent(r, tr); // its event was used, as if it had fired
            }
            completion = t.transitionType(tr) == TO_SUCCEEDED ? RunStatus.SUCCEEDED : RunStatus.FAILED;
            doneDepth = t.stateDepth(linked);
            if (st.traced(r)) {
                st.trace(r, TraceFormat.stateCompleted(st.tick, t, linked, completion));
            }
            top = linked;
        }
    }

    /** After {@link #trigger}: the completion the scan ran with, and the depth of its completed state. */
    byte completion() {
        return completion;
    }

    int completedDepth() {
        return doneDepth;
    }

    /**
     * Phase one (rule U7): the tick and event transitions of row {@code r}'s states from {@code top}
     * to the root, each state's in declared order, ranked by priority (P1).
     */
    private void tickAndEventTransitions(int r, int top) {
        for (int s = top; s >= 0; s = t.stateParent(s)) {
            boolean sourceFails = t.stateDepth(s) > doneDepth; // rule U3: a completed state above it
            for (int tr = t.stateTransitionsBegin(s), end = tr + t.stateTransitionsNum(s); tr < end; tr++) {
                if (t.transitionPriority(tr) <= best || (t.transitionTrigger(tr) & TRIGGER_COMPLETED) != 0) {
                    continue;
                }
                if (t.isGated(tr) && st.gate[r] == scan.gates.mine(tr)) {
                    if (scan.gates.waiting(r)) {
                        continue; // rule U4: waiting, without stopping the scan; a new trigger is ignored
                    }
                    st.clearGate(r); // the delay ran out: spent
                    int fired = NOT_FOUND; // the states a selectable target tries, in order (J2, J5)
                    for (int m = tr, e = t.transitionGroupEnd(tr); m < e && fired == NOT_FOUND && !sourceFails; m++) {
                        fired = found(r, m, m | BY_ARMED_GATE);
                    }
                    if (fired == STOP) {
                        return;
                    }
                    if (fired == FOUND) {
                        continue;
                    }
                    // its target cannot be selected: it is evaluated as any other transition
                }
                if (!scan.shouldCheck(tr, r)) {
                    continue;
                }
                boolean ok = t.payloads.readsPayload(tr) ? scan.payloadPass(r, tr)
                        : scan.conditions.pass(r, t.transitionConditionsBegin(tr), t.transitionConditionsNum(tr));
                if (faults.isFaulted(r - st.base)) {
                    stopped = true; // a condition threw
                    return;
                }
                if (!ok || (t.isGated(tr) && ((st.exec[r] & ExecWord.GATE_BIT) != 0 || scan.gates.arm(r, tr)))) {
                    continue; // failed; or armed now (rule U4), or another delay is pending (one per agent)
                }
                if (!sourceFails && found(r, tr, tr) == STOP) {
                    return;
                }
            }
        }
    }

    /** {@link #found} results: its target cannot be selected / it is the best so far / the scan stops. */
    private static final int NOT_FOUND = 0, FOUND = 1, STOP = 2;

    /**
     * Transition {@code tr} fires for row {@code r} if its target can be selected: then it is the
     * best found, at {@code priority} ({@code fired} is its {@code firedTransition} value). Returns
     * {@link #STOP} when nothing can outrank it or a node threw.
     */
    private int found(int r, int tr, int fired, int priority) {
        int leaf = fired == tr && t.transitionTrigger(tr) == TRIGGER_EVENT ? scan.targetWithEvent(r, tr) : scan.target(r, tr);
        if (faults.isFaulted(r - st.base)) {
            stopped = true;
            return STOP;
        }
        if (leaf == TransitionScan.CONTINUE) {
            return NOT_FOUND;
        }
        best = priority;
        result = leaf == TransitionScan.STOP ? AgentScan.NONE : ScanResult.of(fired, leaf);
        return best == MAX_PRIORITY ? STOP : FOUND;
    }

    private int found(int r, int tr, int fired) {
        return found(r, tr, fired, t.transitionPriority(tr));
    }

    /**
     * Phase two (rule U7): the completion transitions matching the completion, from the completed
     * state of row {@code r}'s path to {@code cur} up, each state's in declared order; the first that
     * passes and whose target can be selected decides, at normal priority.
     */
    private void completionTransitions(int r, int cur) {
        int trigger = completion == RunStatus.SUCCEEDED ? TRIGGER_SUCCEEDED : TRIGGER_FAILED;
        for (int s = t.ancestorAt(cur, doneDepth); s >= 0; s = t.stateParent(s)) {
            for (int tr = t.stateTransitionsBegin(s), end = tr + t.stateTransitionsNum(s); tr < end; tr++) {
                if ((t.transitionTrigger(tr) & trigger) == 0) {
                    continue;
                }
                boolean ok = scan.conditions.pass(r, t.transitionConditionsBegin(tr), t.transitionConditionsNum(tr));
                if (faults.isFaulted(r - st.base)) {
                    stopped = true;
                    return;
                }
                if (ok && found(r, tr, tr, NORMAL) != NOT_FOUND) {
                    return; // no priority on completion transitions: the first decides
                }
            }
        }
    }
}
