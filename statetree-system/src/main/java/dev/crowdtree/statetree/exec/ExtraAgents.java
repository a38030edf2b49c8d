package dev.crowdtree.statetree.exec;

/**
 * The set X of the <em>extra</em> agents of a chunk's step (docs/SEMANTICS.md section 11): the
 * running agents that are not in the always-awake order but must be looked at in this step, because
 * a timer is due, an event arrived, their state completed, a gate is pending, a request woke them, a
 * global task finished them, or a transition fired. One list of global rows per tick period (log2),
 * a flag byte per local row saying why it is in X, and, once {@link SchedulePhase#sliceX} sorted a
 * pass's list by last active state, where each state's agents start in it.
 *
 * <p>Written by {@link SchedulePhase} (collect, sort, slice), {@link ChunkEvents} (an event to
 * self), {@link TaskPhase} and {@link GlobalTaskPhase} (completed agents join), {@link NodeFaults}
 * (faulted agents join) and {@link TransitionApply} (fired agents join); read by every phase of the
 * pass; emptied by {@link ChunkRunner#tickChunk} at the end of the chunk's tick, which also resets
 * the per-row scratch of its rows (every row with a flag, a status, an event or a fault is in X).
 *
 * <p>Allocation: only in {@link #ensureCapacity}. THREADING: confined to its worker.
 */
final class ExtraAgents {
    /** The tick periods (log2 0..6) a chunk's agents can have: one list per period. */
    static final int PERIODS = 7;
    /** {@link #flags}: in X / a timer is due / has events / completed / fired / finished by a global task. */
    static final byte X_IN = 1, X_DUE = 2, X_EVENT = 4, X_DONE = 8, X_FIRED = 16, X_GLOBAL = 32;

    private final ChunkBinding st;
    /** X per period (log2), global rows; a pass's list is sorted by last active state before TickTasks. */
    final int[][] rows = new int[PERIODS][0];
    /** The length of each period's list. */
    final int[] count = new int[PERIODS];
    /** Per local row: why it is in X ({@code X_*} bits), 0 outside X. */
    byte[] flags = new byte[0];
    /**
     * Per state s, where its agents start in the state-sorted list of the pass
     * ({@link SchedulePhase#sliceX}): the X agents whose path contains s are
     * {@code rows[log][stateBegin[s] .. stateBegin[stateSubtreeEnd[s]])}.
     */
    final int[] stateBegin;

    ExtraAgents(ChunkBinding binding) {
        this.st = binding;
        this.stateBegin = new int[binding.t.stateCount + 1];
    }

    void ensureCapacity(int n) {
        for (int p = 0; p < PERIODS; p++) {
            rows[p] = new int[n];
        }
        flags = new byte[n];
    }

    /** Adds local row {@code l} to X (of its period) with {@code flag}; a row is in X at most once. */
    void add(int l, byte flag) {
        byte f = flags[l];
        if ((f & X_IN) == 0) {
            final ChunkBinding c = st;
            int p = c.cs.periodAgents == 0 ? 0 : PeriodByte.log(c.lodOf(c.base + l));
            rows[p][count[p]++] = c.base + l;
            f |= X_IN;
        }
        flags[l] = (byte) (f | flag);
    }
}
