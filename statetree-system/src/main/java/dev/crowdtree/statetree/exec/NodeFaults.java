package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.TimerKind;

import java.util.Arrays;

import static dev.crowdtree.statetree.exec.Decisions.FAULTED;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_GLOBAL;

/**
 * Fault isolation for the chunk being run (docs/SEMANTICS.md section 14, rules R1-R4): under
 * {@link NodeErrorPolicy#ISOLATE}, a node call that throws fails the agents it was processing (the
 * rows of its batch). Each gets a {@link NodeFailure} in the chunk's output and a trace line, and is
 * <em>decided</em> like an agent a global task finished: its status becomes FAILED, so the rest of
 * TickTasks leaves it out, the scan skips it, and {@link TransitionApply} exits its states (every
 * entered task but the one that threw) and its global tasks, and finishes its tree failed. Under
 * {@link NodeErrorPolicy#FAIL} the exception is rethrown.
 *
 * <p>Faults in the evaluators and in the apply phase are recorded at once and decided later
 * ({@link #decidePending}, {@link #isFaulted}): at those points the pass's X lists and decisions
 * are not (or no longer) being built. Allocation: none unless a node throws. THREADING: confined to
 * its worker.
 */
final class NodeFaults {
    /** {@link #taskOf}: the row is not faulted. */
    static final int NONE = Integer.MIN_VALUE;

    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final TickStatus ts;
    private final Decisions dec;
    boolean isolate;
    /** Inside a tick pass: faulted rows join X (to be decided and re-filed with it). */
    boolean ticking;
    /** In the apply phase: faults are not decided (the phase finishes the agent itself). */
    boolean applying;
    /** Per local row: the task that threw (-1: a condition or evaluator), or {@link #NONE}. */
    private int[] faultTask = new int[0];
    private int[] pending = new int[0];
    private int pendingCount;
    /** Rows faulted in this chunk's tick (the per-row marks are cleared with X). */
    int count;

    NodeFaults(ChunkBinding state, ExtraAgents extra, TickStatus ts, Decisions dec) {
        this.st = state;
        this.extra = extra;
        this.ts = ts;
        this.dec = dec;
    }

    void ensureCapacity(int n) {
        faultTask = new int[n];
        pending = new int[n];
        Arrays.fill(faultTask, NONE);
    }

    /** Whether local row {@code l} was faulted in this tick. */
    boolean isFaulted(int l) {
        return count > 0 && faultTask[l] != NONE;
    }

    /** The task of local row {@code l} that threw (-1: none; its ExitState is not called). */
    int taskOf(int l) {
        return count > 0 && faultTask[l] != NONE ? faultTask[l] : -1;
    }

    /** Clears local row {@code l} (with the X scratch, at the end of the chunk's tick). */
    void clear(int l) {
        faultTask[l] = NONE;
    }

    /**
     * Node {@code node} ({@code kind}: task, condition, evaluator; {@code task} its index, -1
     * otherwise) threw {@code e} processing {@code rows[from..to)}: records the failures and, with
     * {@code decide}, decides the rows at once. Returns how many of them were running agents of A
     * (for the phase's "an agent of A completed" count). Rethrows under {@link NodeErrorPolicy#FAIL}.
     */
    int fault(int[] rows, int from, int to, String kind, Node node, int task, Throwable e, boolean decide) {
        if (!isolate) {
            throw NodeFailure.rethrow(e);
        }
        int inA = 0;
        for (int i = from; i < to; i++) {
            inA += faultRow(rows[i], kind, node, task, e, decide);
        }
        return inA;
    }

    /**
     * A condition threw testing {@code rows[from..to)}: in round one, the rows still open to the
     * transition being tested ({@link Decisions#open} at {@link Decisions#testing}) fail (a row
     * decided, or holding a transition found at that priority or above, would not have reached this
     * condition in a per-agent scan, rule R1), decided at once; in the apply phase, the row being
     * applied fails.
     */
    void faultConditions(int[] rows, int from, int to, Node node, Throwable e) {
        if (!isolate) {
            throw NodeFailure.rethrow(e);
        }
        final ChunkBinding c = st;
        for (int i = from; i < to; i++) {
            int r = rows[i];
            if (applying || dec.open(r - c.base, dec.testing)) {
                faultRow(r, "condition", node, -1, e, !applying);
            }
        }
    }

    /** {@link #fault} for the rows {@code from..to-1}. */
    void faultRange(int from, int to, String kind, Node node, Throwable e) {
        if (!isolate) {
            throw NodeFailure.rethrow(e);
        }
        for (int r = from; r < to; r++) {
            faultRow(r, kind, node, -1, e, false);
        }
    }

    /** {@link #enterTask}'s result when the task threw: no status a task can return. */
    static final int THREW = Integer.MIN_VALUE;

    /**
     * EnterState of task {@code k} (a state's or a global one) for row {@code r}, its timer stopped
     * first; returns what it reported, or {@link #THREW} when it threw, the throw recorded as a
     * {@code kind}'s ({@link #faultOne}: the agent fails, or it is rethrown).
     */
    int enterTask(int k, int r, String kind) {
        final ChunkBinding c = st;
        final TimerKind timer = c.t.taskTimer(k);
        if (timer != TimerKind.NONE) {
            c.d.ints[c.t.taskTimerDueSlot(k)][r] = 0; // entering stops the task's timer
        }
        c.control.setTask(k, timer);
        try {
            return c.t.task(k).enterState(c.ctx, r);
        } catch (RuntimeException | StackOverflowError e) {
            faultOne(r, kind, c.t.task(k), k, e);
            return THREW;
        } finally {
            c.control.setTask(-1, TimerKind.NONE);
        }
    }

    /**
     * Records a throw of a per-agent call that must not stop what it is part of: an ExitState (the
     * exit goes on, rules R2, R3), an EnterState or a treeStop; the agent fails unless it already
     * has. Rethrows under FAIL.
     */
    void faultOne(int r, String kind, Node node, int task, Throwable e) {
        if (!isolate) {
            throw NodeFailure.rethrow(e);
        }
        int l = r - st.base;
        if (isFaulted(l)) {
            record(r, kind, node, e);
        } else {
            faultRow(r, kind, node, task, e, false);
        }
    }

    /** Clears every mark (after a Start or Stop, which have no X scratch). */
    void resetAll() {
        if (count > 0) {
            Arrays.fill(faultTask, NONE);
            count = 0;
        }
        pendingCount = 0;
    }

    private int faultRow(int r, String kind, Node node, int task, Throwable e, boolean decide) {
        final ChunkBinding c = st;
        int l = r - c.base;
        if (isFaulted(l) || c.runOf(r) != RunStatus.RUNNING) {
            return 0;
        }
        record(r, kind, node, e);
        count++;
        faultTask[l] = task;
        if (!ticking) {
            return 0; // Start or Stop: the caller finishes the row's tree
        }
        extra.add(l, X_GLOBAL); // reset with the X scratch at the end of the tick, re-filed with X
        pending[pendingCount++] = r;
        if (!decide) {
            return 0;
        }
        return decidePending();
    }

    private void record(int r, String kind, Node node, Throwable e) {
        final ChunkBinding c = st;
        int leaf = c.stateOf(r) - 1;
        NodeFailure f = new NodeFailure(c.tick, c.ids[r], kind + " '" + node.name() + "'",
                leaf < 0 ? "-" : c.t.statePath(leaf), NodeFailure.describe(e));
        c.out.failures.add(f);
        if (c.traced(r)) {
            c.trace(r, TraceFormat.fault(f));
        }
    }

    /**
     * Decides the rows faulted since the last call (after TickTasks' statuses are set up): FAILED,
     * no transition scanned, finished by {@link TransitionApply}. Returns how many were running
     * agents of A.
     */
    int decidePending() {
        final ChunkBinding c = st;
        int inA = 0;
        for (int i = 0; i < pendingCount; i++) {
            int r = pending[i];
            int l = r - c.base;
            if (ts.status[l] == RunStatus.RUNNING && c.cs.isListed(l)) {
                inA++;
            }
            ts.status[l] = RunStatus.FAILED;
            ts.globalStatus[l] = RunStatus.FAILED;
            dec.firedTransition[l] = FAULTED;
            if (dec.decStamp[l] != dec.epoch || !listedAsFired(r)) {
                dec.firedRows[dec.fired++] = r;
            }
            dec.decStamp[l] = dec.epoch; // no transition is scanned for it in this tick
        }
        pendingCount = 0;
        return inA;
    }

    /** Whether row {@code r} is among the rows decided in this pass (rare path: a fault). */
    private boolean listedAsFired(int r) {
        for (int i = 0; i < dec.fired; i++) {
            if (dec.firedRows[i] == r) {
                return true;
            }
        }
        return false;
    }

    /** Drops the pending rows without deciding them (the apply phase handles its own faults). */
    void dropPending() {
        pendingCount = 0;
    }
}
