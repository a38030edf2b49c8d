package dev.crowdtree.statetree.exec;

/**
 * What a runtime does when a node's kernel throws (docs/SEMANTICS.md section 14, rules R1-R4).
 */
public enum NodeErrorPolicy {
    /** The exception ends the call that ran the tick (start, tick, stop): for development and tests. */
    FAIL,
    /**
     * The agents the throwing call was processing fail: their trees stop with status failed after
     * ExitState of their entered tasks (but the one that threw), the failure is recorded in the
     * runtime's {@link FailureLog}, and every other agent's tick completes.
     */
    ISOLATE
}
