package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;

import dev.crowdtree.statetree.compiled.CompiledStateTree;

/**
 * {@code FStateTreeTransitionResult}, plus which transition fired (for the trace and event
 * consumption): the active path before and after, and the target (docs/SEMANTICS.md sections 4 and 6).
 */
final class TransitionResult {
    final ActiveStates currentActiveStates = new ActiveStates();
    final ActiveStates nextActiveStates = new ActiveStates();
    int targetState = INVALID;
    /** {@link #transitionIndex} of a transition a composite's rule fired (rules K3-K5; to {@link #targetState}). */
    static final int COMPOSITE_RULE = -2;
    /** {@link #transitionIndex} of a transition a task requested (rules O1-O4; to {@link #targetState}, at {@link #requestPriority}). */
    static final int REQUEST = -3;
    /** With {@link #REQUEST}: its priority. */
    int requestPriority;
    /** The transition that fired, -1 for the restart from root, or {@link #COMPOSITE_RULE}. */
    int transitionIndex = INVALID;
    /** The restart from root could not select a state (SEMANTICS.md section 4, deviation Q-A9). */
    boolean restartFailed;
    /**
     * The index on the path from which states are exited and entered as changed even where both paths
     * hold the same state: the completed state's under {@code "rules": "unreal-5.8"} when the scan
     * ran after a completion (rule U3), else {@code MAX_DEPTH} (none).
     */
    int changedFrom = CompiledStateTree.MAX_DEPTH;
    /** The completion the scan that found it ran with, and the path index of its completed state (for {@code why} lines). */
    byte whyCompletion;
    int whyCompletedIndex;
    /** It fired because its armed gate opened, without its trigger being tested again (rule U4): it consumes no event. */
    boolean byArmedGate;

    /** Makes this a copy of {@code other}. */
    void copyFrom(TransitionResult other) {
        currentActiveStates.copyFrom(other.currentActiveStates);
        nextActiveStates.copyFrom(other.nextActiveStates);
        targetState = other.targetState;
        transitionIndex = other.transitionIndex;
        restartFailed = other.restartFailed;
        changedFrom = other.changedFrom;
        byArmedGate = other.byArmedGate;
        requestPriority = other.requestPriority;
        whyCompletion = other.whyCompletion;
        whyCompletedIndex = other.whyCompletedIndex;
    }
}
