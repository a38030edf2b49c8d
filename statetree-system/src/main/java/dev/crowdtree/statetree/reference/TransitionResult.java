package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;

/**
 * {@code FStateTreeTransitionResult}, plus which transition fired (for the trace and event
 * consumption): the active path before and after, and the target (docs/SEMANTICS.md sections 4 and 6).
 */
final class TransitionResult {
    final ActiveStates currentActiveStates = new ActiveStates();
    final ActiveStates nextActiveStates = new ActiveStates();
    int targetState = INVALID;
    /** The transition that fired, or -1 for the restart from root. */
    int transitionIndex = INVALID;
    /** The restart from root could not select a state (SEMANTICS.md section 4, deviation Q-A9). */
    boolean restartFailed;
}
