package dev.crowdtree.statetree.exec;

/**
 * The transitions decided in a pass of a chunk's tick, per local row, from the scan to the apply
 * phase: which transition fires (or a special value: {@link #RESTART}, {@link #GLOBAL_DONE},
 * {@link #FAULTED}, a composite's rule) and the leaf it selected, in the order the rows were decided
 * ({@link #firedRows}); which rows are decided in this pass ({@link #decStamp} equal to
 * {@link #epoch}); and, for the why lines and rule U3, the completion the scan ran with and the depth
 * from which the transition exits and enters states as changed. {@link #oldLeaf} is what the apply
 * phase leaves for the re-filing: each fired row's leaf before it fired.
 *
 * <p>Written by {@link TransitionScan}, {@link AgentScan} (decisions), {@link GlobalTaskPhase}
 * (trees a global task finished) and {@link NodeFaults} (agents a throwing node failed); read by
 * {@link TransitionApply} (and {@link Gates}, {@link AgentScan} for the epoch), which writes
 * {@link #oldLeaf} for {@link SchedulePhase#refile}. {@link ChunkRunner} starts a new epoch per
 * chunk and empties {@link #firedRows} per pass. Rows not stamped in this epoch hold stale values.
 *
 * <p>Allocation: only in {@link #ensureCapacity}. THREADING: confined to its worker.
 */
final class Decisions {
    /** {@link #firedTransition} value for the restart from root. */
    static final int RESTART = -2;
    /** {@link #firedTransition} value for a tree a global task finished (rule G2; the status in {@link TickStatus#globalStatus}). */
    static final int GLOBAL_DONE = -3;
    /** {@link #firedTransition} value for an agent a throwing node failed (rule R1; {@link NodeFaults}). */
    static final int FAULTED = -4;
    /**
     * {@link #firedTransition} values from this one down: a transition a composite's rule fired to
     * state {@code COMPOSITE_FIRED - value} (rules K4, K5; {@link #compositeFired}, {@link #compositeTarget}).
     */
    static final int COMPOSITE_FIRED = -16;
    /**
     * {@link #firedTransition} values from this one down: a transition a task requested, to state
     * {@code (REQUEST_FIRED - value) >> 3} at priority {@code (REQUEST_FIRED - value) & 7} (rules
     * O1-O4; {@link #requestFired}, {@link #requestTarget}, {@link #requestPriority}).
     */
    static final int REQUEST_FIRED = -(1 << 24);
    /**
     * Flag on a {@link #firedTransition} value {@code >= 0}: the transition fires because the delay
     * it armed ran out, without being tested again (rule U4, {@code unreal-5.8}); it consumes no event.
     */
    static final int BY_ARMED_GATE = 1 << 30;

    /** Decided in this pass (fired or blocked) when equal to {@link #epoch}. */
    int[] decStamp = new int[0];
    /** The current stamp: one per chunk tick. */
    int epoch;
    /** The transition that fires, or a special value above. */
    int[] firedTransition = new int[0];
    /** The leaf the fired transition selected (-1: none). */
    int[] nextLeaf = new int[0];
    /** The depth from which a round-one transition exits and enters states as changed (rule U3; 8: none). */
    byte[] changedFrom = new byte[0];
    /** With {@link ChunkBinding#explain}: the completion a round-one scan ran with, and its completed state's depth. */
    byte[] whyStatus = new byte[0], whyDepth = new byte[0];
    /** Written by the apply phase: the leaf a fired row had before it fired (for the re-filing). */
    int[] oldLeaf = new int[0];
    /** The rows decided to fire in this pass, global rows, in the order they were decided; {@link #fired} of them. */
    int[] firedRows = new int[0];
    int fired;
    /** The tree has priorities, so rows may hold ranked finds (else {@link #open} reads only {@link #decStamp}: one miss less per scattered row). */
    boolean ranking;
    /**
     * Round one's ranking in a tree with transition priorities (rule P1): a row found a transition
     * at priority {@link #rank} that a transition later in its scan may still outrank, when
     * {@link #rankStamp} equals {@link #epoch}; its {@link #firedTransition} and {@link #nextLeaf}
     * hold what it found ({@link TransitionScan#STOP}: a passing {@code @none} or a waiting gate).
     * {@link #rankedRows} lists those rows, {@link #ranked} of them, until
     * {@link TransitionScan#detectTransitions} settles them.
     */
    int[] rankStamp = new int[0];
    byte[] rank = new byte[0];
    int[] rankedRows = new int[0];
    int ranked;
    /** The priority of the transition whose conditions round one is testing (for {@link NodeFaults#faultConditions}). */
    int testing;

    void ensureCapacity(int n) {
        decStamp = new int[n];
        firedTransition = new int[n];
        nextLeaf = new int[n];
        changedFrom = new byte[n];
        whyStatus = new byte[n];
        whyDepth = new byte[n];
        oldLeaf = new int[n];
        firedRows = new int[n];
        rankStamp = new int[n];
        rank = new byte[n];
        rankedRows = new int[n];
    }

    /**
     * Whether local row {@code l} is still open to a transition of priority {@code priority} in
     * round one: not decided, and nothing found at that priority or above (rule P1). In a tree
     * without priorities, whatever is found decides at once, so this is "not decided".
     */
    boolean open(int l, int priority) {
        return decStamp[l] != epoch && (!ranking || rankStamp[l] != epoch || rank[l] < priority);
    }

    /**
     * Row {@code r} (local {@code l}) found transition {@code tr} at {@code priority}, with the
     * selected {@code leaf}, and a transition later in its scan may outrank it (rule P1).
     */
    void found(int r, int l, int tr, int leaf, int priority) {
        if (rankStamp[l] != epoch) {
            rankStamp[l] = epoch;
            rankedRows[ranked++] = r;
        }
        rank[l] = (byte) priority;
        firedTransition[l] = tr;
        nextLeaf[l] = leaf;
    }

    /**
     * With {@link ChunkBinding#explain}: the completion a round-one decision for row {@code r}
     * ran with ({@code status}, and {@code doneLimit} the completed state's depth + 1), for its why
     * line.
     */
    void noteWhy(ChunkBinding c, int r, byte status, int doneLimit) {
        if (c.explains(r)) {
            whyStatus[r - c.base] = status;
            whyDepth[r - c.base] = (byte) (doneLimit - 1);
        }
    }

    /** The {@link #firedTransition} value of a transition a composite's rule fired to {@code target}. */
    static int compositeFired(int target) {
        return COMPOSITE_FIRED - target;
    }

    /** The target of {@link #firedTransition} value {@code fired} if a composite's rule fired it, else -1. */
    static int compositeTarget(int fired) {
        return fired <= COMPOSITE_FIRED && fired > REQUEST_FIRED ? COMPOSITE_FIRED - fired : -1;
    }

    /** The {@link #firedTransition} value of a transition a task requested to {@code target} at {@code priority}. */
    static int requestFired(int target, int priority) {
        return REQUEST_FIRED - (target << 3) - priority;
    }

    /** The target of {@link #firedTransition} value {@code fired} if a task requested it, else -1. */
    static int requestTarget(int fired) {
        return fired <= REQUEST_FIRED ? (REQUEST_FIRED - fired) >> 3 : -1;
    }

    /** The priority of a requested transition's {@link #firedTransition} value {@code fired}. */
    static int requestPriority(int fired) {
        return (REQUEST_FIRED - fired) & 7;
    }

    /** Whether {@link #firedTransition} value {@code fired} is flagged {@link #BY_ARMED_GATE}. */
    static boolean byArmedGate(int fired) {
        return fired >= 0 && (fired & BY_ARMED_GATE) != 0;
    }

    /** {@link #firedTransition} value {@code fired} without its {@link #BY_ARMED_GATE} flag. */
    static int withoutGateFlag(int fired) {
        return fired >= 0 ? fired & ~BY_ARMED_GATE : fired;
    }
}
