package dev.crowdtree.statetree.exec;

/**
 * What a per-agent transition scan found, in one {@code long}: the transition that fires (or a
 * {@link Decisions#firedTransition} special value: {@link Decisions#RESTART}, a composite's rule,
 * flagged {@link Decisions#BY_ARMED_GATE}) in the high half and the leaf it selected in the low
 * half, or {@link #NONE}. Written by {@link AgentScan} and {@link UnrealAgentScan}, read by them and
 * by {@link TransitionApply}.
 */
final class ScanResult {
    /** Nothing found: no transition fires. */
    static final long NONE = Long.MIN_VALUE;

    private ScanResult() {
    }

    /** Transition (or special value) {@code transition} with selected leaf {@code leaf}. */
    static long of(int transition, int leaf) {
        return ((long) transition << 32) | (leaf & 0xFFFFFFFFL);
    }

    /** The transition (or special value) of {@code result} (not {@link #NONE}). */
    static int transition(long result) {
        return (int) (result >> 32);
    }

    /** The leaf of {@code result} (not {@link #NONE}). */
    static int leaf(long result) {
        return (int) result;
    }
}
