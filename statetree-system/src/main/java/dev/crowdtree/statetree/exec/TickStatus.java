package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.node.RunStatus;

import java.util.Arrays;

/**
 * What the task phases of a chunk's tick found per local row: the status each agent's tasks
 * reported (the worker's {@code NodeContext} writes it: tasks complete rows through it), what its
 * global tasks reported, and which task completed it. Outside X every row holds the defaults
 * (RUNNING, RUNNING, {@link #NOT_DONE}): only X agents can have completed, and
 * {@link ChunkRunner#tickChunk} resets X's rows at the end of the tick.
 *
 * <p>Written by {@link TaskPhase} (and {@link GlobalTaskPhase}, {@link NodeFaults}); read by the
 * scans ({@link TransitionScan}, {@link AgentScan}: the completion a transition scan runs with) and
 * {@link TransitionApply} (a tree a global task finished). It is its own object, not part of
 * {@link ExtraAgents}, because the node context binds {@link #status} as the status column of the
 * whole chunk, A included, for the task calls.
 *
 * <p>Allocation: only in {@link #ensureCapacity}. THREADING: confined to its worker.
 */
final class TickStatus {
    /**
     * {@link #doneAt}: not completed / completed before this tick (every timer pauses) / completed on
     * a path without tasks (rule U6).
     */
    static final int NOT_DONE = -2, DONE_BEFORE = -1, NO_TASKS = -3;

    /** The status the agent's state tasks gave in this tick (its last tick status when it started X). */
    byte[] status = new byte[0];
    /** What the global tasks reported in this tick (RUNNING outside X), see {@link GlobalTaskPhase}. */
    byte[] globalStatus = new byte[0];
    /** The task that completed the agent in this tick, or a {@code NOT_DONE}-style value. */
    int[] doneAt = new int[0];

    void ensureCapacity(int n) {
        status = new byte[n];
        Arrays.fill(status, RunStatus.RUNNING);
        globalStatus = new byte[n];
        Arrays.fill(globalStatus, RunStatus.RUNNING);
        doneAt = new int[n];
        Arrays.fill(doneAt, NOT_DONE);
    }
}
