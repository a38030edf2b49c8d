package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.node.TransitionRequests;

/**
 * The transition requests of a chunk's tasks (docs/SEMANTICS.md, rules O1-O4): per row, the best
 * pending request in the {@code request} columns (target state + 1, priority), kept until the row's
 * next transition scan ({@link TransitionScan#takeRequest}); the row joins X so that this tick's
 * scan sees it, and stays looked at every step while it holds one ({@link SchedulePhase}).
 *
 * <p>Allocation: none. THREADING: confined to its worker.
 */
final class TaskRequests implements TransitionRequests {
    private final ChunkBinding st;
    private final ExtraAgents extra;
    /**
     * While the chunk ticks: a requesting row joins X. Outside a tick (Start) the schedule built
     * after it files the row as one to look at every step ({@link SchedulePhase}).
     */
    boolean ticking;

    TaskRequests(ChunkBinding st, ExtraAgents extra) {
        this.st = st;
        this.extra = extra;
    }

    @Override
    public void request(int row, int state, int priority, int task) {
        final short[] q = st.request;
        if (q[row] == 0 || priority > st.requestPriority[row]) {
            q[row] = (short) (state + 1);
            st.requestPriority[row] = (byte) priority;
            int source = task >= 0 ? st.t.taskState(task) : -1;
            st.requestSource[row] = (byte) (source >= 0 ? st.t.stateDepth(source) + 1 : 0);
        }
        if (ticking) {
            extra.add(row - st.base, (byte) 0);
        }
    }
}
