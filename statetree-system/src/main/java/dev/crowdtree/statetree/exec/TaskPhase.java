package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;

import static dev.crowdtree.statetree.exec.ExtraAgents.X_DONE;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_DUE;
import static dev.crowdtree.statetree.exec.InstanceData.NEVER;
import static dev.crowdtree.statetree.exec.TickStatus.DONE_BEFORE;
import static dev.crowdtree.statetree.exec.TickStatus.NOT_DONE;
import static dev.crowdtree.statetree.exec.TickStatus.NO_TASKS;

/**
 * TickTasks for a pass of a chunk (docs/SEMANTICS.md section 3 step 5, timers of section 3.1):
 * states in ascending id order, so root to leaf for every agent; per task, {@code onTimer} for the X
 * agents whose timer is due now, then its tick over the state's slice of the always-awake agents. An
 * agent leaves the batches once a task completed it, and the timers it did not reach pause (their due
 * steps move one period later). Completed agents join X for the transition scan. A tree under
 * {@code "rules": "unreal-5.8"} ticks its agents' tasks until one fails instead (rules U5, U6).
 *
 * <p>THREADING: confined to its worker.
 */
final class TaskPhase {
    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final TickStatus ts;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final InstanceData d;
    private final NodeContext ctx;
    private final ContextControl control;

    /** The rows of a task call's batch, built per task (due timers, A rows still running). */
    private int[] cand = new int[0];

    TaskPhase(ChunkBinding state, ExtraAgents extra, TickStatus ts, NodeFaults faults) {
        this.st = state;
        this.extra = extra;
        this.ts = ts;
        this.faults = faults;
        this.t = state.t;
        this.d = state.d;
        this.ctx = state.ctx;
        this.control = state.control;
    }

    void ensureCapacity(int n) {
        cand = new int[n];
        if (t.unreal.on) {
            callStatus = new byte[n];
            reported = new int[n];
            failedIn = new int[n];
            failedTask = new int[n];
        }
        for (int allIndex = 0; allIndex < t.stateCount; allIndex++) {
            boolean all = t.stateCompletionAll(allIndex);
            if (all) {
                allStamp = new int[n];
                break;
            }
        }
    }

    /**
     * Gives the state-sorted X agents {@code xs[0..xn)} the status they start TickTasks with (their
     * last tick status); returns how many of the completed ones are always awake.
     */
    int startStatuses(int[] xs, int xn) {
        final ChunkBinding c = st;
        final int base = c.base;
        int doneInA = 0;
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - base;
            byte s = c.lastOf(r);
            ts.status[l] = s;
            if (s != RunStatus.RUNNING) {
                ts.doneAt[l] = DONE_BEFORE;
                extra.flags[l] |= X_DONE;
                if (c.cs.isListed(l)) {
                    doneInA++;
                }
            }
        }
        return doneInA;
    }

    /**
     * TickTasks: states in ascending id order; per task, onTimer for the due X agents of the state's
     * subtree whose timer is due now, then the tick over the state's slice of A. An agent leaves the
     * batches once something completed it.
     */
    void tickTasks(int[] aOrder, int[] aBegin, int xn, int doneInAStart) {
        if (t.unreal.on) {
            tickEveryTask(aOrder, aBegin);
            return;
        }
        final ChunkBinding c = st;
        final int[] xs = extra.rows[c.listLog];
        final byte[] status = ts.status;
        final byte[] xFlags = extra.flags;
        final int[] cand = this.cand;
        final int[] xBegin = extra.stateBegin;
        final int step = c.step;
        final int b = c.base;
        int doneInA = doneInAStart;
        for (int s = 0; s < t.stateCount; s++) {
            int numTasks = t.stateTasksNum(s);
            if (numTasks == 0) {
                continue;
            }
            int aLo = aBegin[t.stateAwakeGroupsBegin(s)];
            int aHi = aBegin[t.stateAwakeGroupsBegin(t.stateSubtreeEnd(s))];
            int xLo = xBegin[s];
            int xHi = xBegin[t.stateSubtreeEnd(s)];
            if (aLo == aHi && xLo == xHi) {
                continue;
            }
            if (t.stateCompletionAll(s)) {
                doneInA += tickAllState(s, aOrder, aLo, aHi, xs, xLo, xHi);
                continue;
            }
            for (int k = t.stateTasksBegin(s), kEnd = k + numTasks; k < kEnd; k++) {
                Task task = t.task(k);
                control.setBackground(!t.taskConsidered(k));
                if (t.taskTimer(k) != TimerKind.NONE && xLo < xHi) {
                    final int[] due = d.ints[t.taskTimerDueSlot(k)];
                    int m = 0;
                    for (int i = xLo; i < xHi; i++) {
                        int r = xs[i];
                        int l = r - b;
                        if ((xFlags[l] & X_DUE) != 0 && status[l] == RunStatus.RUNNING && due[r] == step) {
                            due[r] = 0; // ran out: stopped (onTimer may start it again)
                            cand[m++] = r;
                        }
                    }
                    if (m > 0) {
                        control.resetCompletions();
                        doneInA += onTimer(task, k, cand, 0, m);
                        if (control.completions() > 0) {
                            doneInA += recordCompletions(cand, 0, m, k);
                            keepRunOut(k, cand, 0, m, false);
                        }
                    }
                }
                if (task.ticks() && aLo < aHi) {
                    control.resetCompletions();
                    if (doneInA == 0) {
                        doneInA += tick(task, k, aOrder, aLo, aHi);
                        if (control.completions() > 0) {
                            doneInA += recordCompletions(aOrder, aLo, aHi, k);
                        }
                    } else {
                        int m = 0;
                        for (int i = aLo; i < aHi; i++) {
                            int r = aOrder[i];
                            if (status[r - b] == RunStatus.RUNNING) {
                                cand[m++] = r;
                            }
                        }
                        if (m > 0) {
                            doneInA += tick(task, k, cand, 0, m);
                            if (control.completions() > 0) {
                                doneInA += recordCompletions(cand, 0, m, k);
                            }
                        }
                    }
                }
            }
        }
        control.setBackground(false);
    }

    /**
     * TickTasks under {@code "rules": "unreal-5.8"} (docs/SEMANTICS.md section 20): as
     * {@link #tickTasks}, states in ascending id order and per task onTimer for the due X agents,
     * then its tick over the state's slice of A; but an agent stays in the batches after a task
     * succeeded (rule U5), and leaves them once one failed (the tasks after it are not reached, their
     * timers pause). Each call reports into {@link #callStatus}; the completed state is the shallowest
     * whose task reported, failed if one of its tasks failed. Then the agents on a path without tasks
     * succeed (rule U6).
     */
    private void tickEveryTask(int[] aOrder, int[] aBegin) {
        final ChunkBinding c = st;
        final int[] xs = extra.rows[c.listLog];
        final byte[] xFlags = extra.flags;
        final int[] cand = this.cand;
        final int[] xBegin = extra.stateBegin;
        final int step = c.step;
        final int b = c.base;
        passEpoch++;
        final byte[] calls = callStatus;
        control.bindStatus(calls, b);
        for (int s = 0; s < t.stateCount; s++) {
            int numTasks = t.stateTasksNum(s);
            int aLo = aBegin[t.stateAwakeGroupsBegin(s)];
            int aHi = aBegin[t.stateAwakeGroupsBegin(t.stateSubtreeEnd(s))];
            int xLo = xBegin[s];
            int xHi = xBegin[t.stateSubtreeEnd(s)];
            for (int k = t.stateTasksBegin(s), kEnd = k + numTasks; k < kEnd && (aLo < aHi || xLo < xHi); k++) {
                Task task = t.task(k);
                // a background task reports too (rule U9): merge marks it completed, and it decides nothing
                final byte[] done = doneFlags(k);
                callEpoch++;
                if (t.taskTimer(k) != TimerKind.NONE && xLo < xHi) {
                    final int[] due = d.ints[t.taskTimerDueSlot(k)];
                    int m = 0;
                    for (int i = xLo; i < xHi; i++) {
                        int r = xs[i];
                        int l = r - b;
                        if ((xFlags[l] & X_DUE) != 0 && reaches(l) && due[r] == step && (done == null || done[r] == 0)) {
                            due[r] = 0; // ran out: stopped (onTimer may start it again)
                            calls[l] = RunStatus.RUNNING;
                            cand[m++] = r;
                        }
                    }
                    callAndMerge(task, k, m, true);
                }
                if (task.ticks() && aLo < aHi) {
                    int m = 0;
                    for (int i = aLo; i < aHi; i++) {
                        int r = aOrder[i];
                        int l = r - b;
                        if (reaches(l) && reported[l] != callEpoch && (done == null || done[r] == 0)) {
                            // (not if its onTimer reported just now, nor once it completed: rules U9, U10)
                            calls[l] = RunStatus.RUNNING;
                            cand[m++] = r;
                        }
                    }
                    callAndMerge(task, k, m, false);
                }
            }
        }
        control.setBackground(false);
        control.bindStatus(ts.status, b);
        if (t.unreal.anyNoTaskPath) {
            for (int i = aBegin[0], n = aBegin[t.awakeGroupCount]; i < n; i++) {
                int r = aOrder[i];
                int l = r - b;
                if (t.unreal.noTaskOnPath(c.stateOf(r) - 1) && reaches(l)) {
                    ts.status[l] = RunStatus.SUCCEEDED; // rule U6: completed at its last state
                    ts.doneAt[l] = NO_TASKS;
                    extra.add(l, X_DONE);
                }
            }
        }
    }

    /**
     * Task {@code k}'s runtime-owned "finished" flags by row (completion "all", or under unreal-5.8 a
     * background task's kept status, rules U9, U10), or null when it has none.
     */
    private byte[] doneFlags(int k) {
        int slot = t.taskDoneSlot(k);
        return slot >= 0 ? d.bools[slot] : null;
    }

    /** Under {@code unreal-5.8}: what each task call reported, per local row (bound as the context's status). */
    private byte[] callStatus = new byte[0];
    /** The {@link #callEpoch} of the onTimer call of a row's task that reported, so that its tick is not called too. */
    private int[] reported = new int[0];
    private int callEpoch;
    /** The {@link #passEpoch} in which a task of the row failed, and that task: the tasks after it are not reached. */
    private int[] failedIn = new int[0];
    private int[] failedTask = new int[0];
    private int passEpoch;

    /**
     * Whether TickTasks reaches local row {@code l} under {@code unreal-5.8}: not when it completed
     * before this tick, nor after one of its tasks failed in this tick, nor when a global task
     * finished its tree or a node failed it (rule R1).
     */
    private boolean reaches(int l) {
        return ts.doneAt[l] != DONE_BEFORE && failedIn[l] != passEpoch && (extra.flags[l] & ExtraAgents.X_GLOBAL) == 0;
    }

    /**
     * Under {@code unreal-5.8}: the task after which row {@code l}'s timers pause in this tick, the
     * one that failed ({@link #afterTasks}); none ({@code Integer.MAX_VALUE}) when none failed.
     */
    private int pausesAfter(int l) {
        return failedIn.length > l && failedIn[l] == passEpoch ? failedTask[l] : Integer.MAX_VALUE;
    }

    /**
     * Under {@code unreal-5.8}: task {@code k}'s onTimer ({@code onTimer}) or tick over the
     * candidates {@code cand[0..m)}, whose {@link #callStatus} is RUNNING, and {@link #merge} of
     * what it reported; an onTimer that reported keeps its timer run out (rule M1).
     */
    private void callAndMerge(Task task, int k, int m, boolean onTimer) {
        if (m == 0) {
            return;
        }
        final int[] cand = this.cand;
        control.resetCompletions();
        if (onTimer) {
            onTimer(task, k, cand, 0, m);
        } else {
            tick(task, k, cand, 0, m);
        }
        if (control.completions() > 0) {
            merge(cand, 0, m, k, onTimer);
            if (onTimer) {
                keepRunOut(k, cand, 0, m, true);
            }
        }
    }

    /**
     * Rule U5: what a call of task {@code k} reported for {@code rs[from..to)}: the first report of a
     * row in this tick makes the task's state the completed one, and a later failure of a task of that
     * same state makes it failed; a failure anywhere stops the row's tasks there. A row completing
     * joins X.
     */
    private void merge(int[] rs, int from, int to, int k, boolean onTimer) {
        final ChunkBinding c = st;
        final int b = c.base;
        final byte[] done = doneFlags(k);
        final boolean considered = t.taskConsidered(k);
        final boolean all = t.stateCompletionAll(t.taskState(k));
        for (int i = from; i < to; i++) {
            int r = rs[i];
            int l = r - b;
            byte reportedNow = callStatus[l];
            if (reportedNow == RunStatus.RUNNING || faults.isFaulted(l)) {
                continue;
            }
            if (onTimer) {
                reported[l] = callEpoch;
            }
            if (done != null) {
                done[r] = 1; // rules U9, U10: not reached again while its state stays
            }
            if (!considered) {
                continue; // a background task's report completes nothing and stops nothing
            }
            if (all && reportedNow == RunStatus.SUCCEEDED && !t.allCountedDone(t.taskState(k), d.bools, r)) {
                continue; // rule U10: the state succeeds once its last counted task has
            }
            if (reportedNow == RunStatus.FAILED) {
                failedIn[l] = passEpoch;
                failedTask[l] = k;
            }
            if (ts.status[l] == RunStatus.RUNNING) {
                ts.status[l] = reportedNow;
                ts.doneAt[l] = k;
                extra.add(l, X_DONE);
            } else if (reportedNow == RunStatus.FAILED && t.taskState(ts.doneAt[l]) == t.taskState(k)) {
                ts.status[l] = RunStatus.FAILED; // a failure wins in the completed state
            }
        }
    }

    /**
     * TickTasks of a {@code "completion": "all"} state, agent by agent (docs/SEMANTICS.md section 3):
     * a finished task is not reached again; a success marks the task finished; a failure completes
     * the state; the state succeeds once every counted task has finished. Per agent, so one call per
     * (task, agent) here: trees without such states never come here. Returns how many completed
     * agents are in A.
     */
    private int tickAllState(int s, int[] aOrder, int aLo, int aHi, int[] xs, int xLo, int xHi) {
        final ChunkBinding c = st;
        final int b = c.base;
        allEpoch++;
        int inA = 0;
        for (int i = aLo; i < aHi; i++) {
            int r = aOrder[i];
            allStamp[r - b] = allEpoch;
            inA += tickAllAgent(s, r, true);
        }
        for (int i = xLo; i < xHi; i++) {
            int r = xs[i];
            if (allStamp[r - b] != allEpoch) {
                inA += tickAllAgent(s, r, false);
            }
        }
        control.setBackground(false);
        return inA;
    }

    private int[] allStamp = new int[0];
    private int allEpoch;
    private final int[] oneRow = new int[1];

    private int tickAllAgent(int s, int r, boolean inA) {
        final ChunkBinding c = st;
        final int l = r - c.base;
        final byte[] status = ts.status;
        if (status[l] != RunStatus.RUNNING) {
            return 0;
        }
        oneRow[0] = r;
        boolean finishedNow = false; // the state completes only when its last counted task finishes
        int last = t.stateTasksBegin(s) + t.stateTasksNum(s) - 1;
        for (int k = t.stateTasksBegin(s); k <= last; k++) {
            if (d.bools[t.taskDoneSlot(k)][r] != 0) {
                continue; // finished: not reached again while the state stays active
            }
            Task task = t.task(k);
            control.setBackground(!t.taskConsidered(k));
            if (t.taskTimer(k) != TimerKind.NONE && (extra.flags[l] & X_DUE) != 0) {
                final int[] due = d.ints[t.taskTimerDueSlot(k)];
                if (due[r] == c.step) {
                    due[r] = 0;
                    onTimer(task, k, oneRow, 0, 1);
                    if (status[l] != RunStatus.RUNNING) {
                        if (failedOrDone(l, r, k)) {
                            int completed = recordCompletions(oneRow, 0, 1, k);
                            keepRunOut(k, oneRow, 0, 1, false);
                            return completed;
                        }
                        finishedNow = true;
                        continue;
                    }
                }
            }
            if (inA && task.ticks()) {
                tick(task, k, oneRow, 0, 1);
                if (status[l] != RunStatus.RUNNING) {
                    if (failedOrDone(l, r, k)) {
                        return recordCompletions(oneRow, 0, 1, k);
                    }
                    finishedNow = true;
                }
            }
        }
        if (finishedNow && t.allCountedDone(s, d.bools, r)) {
            status[l] = RunStatus.SUCCEEDED;
            return recordCompletions(oneRow, 0, 1, last);
        }
        return 0;
    }

    /** Task {@code k}'s onTimer over {@code rs[from..to)}; a throw fails those rows (rule R1). Returns how many ran in A. */
    private int onTimer(Task task, int k, int[] rs, int from, int to) {
        control.setTask(k, t.taskTimer(k));
        try {
            task.onTimer(ctx, rs, from, to);
            return 0;
        } catch (RuntimeException | StackOverflowError e) {
            return faults.fault(rs, from, to, "task", task, k, e, true);
        } finally {
            control.setTask(-1, TimerKind.NONE);
        }
    }

    /** Task {@code k}'s tick over {@code rs[from..to)}; a throw fails those rows (rule R1). Returns how many ran in A. */
    private int tick(Task task, int k, int[] rs, int from, int to) {
        control.setCallingTask(k);
        try {
            task.tick(ctx, rs, from, to);
            return 0;
        } catch (RuntimeException | StackOverflowError e) {
            return faults.fault(rs, from, to, "task", task, k, e, true);
        } finally {
            control.setCallingTask(-1);
        }
    }

    /** Task {@code k} reported a status: a success marks it finished (false: go on); a failure completes the state. */
    private boolean failedOrDone(int l, int r, int k) {
        if (ts.status[l] == RunStatus.SUCCEEDED) {
            d.bools[t.taskDoneSlot(k)][r] = 1;
            ts.status[l] = RunStatus.RUNNING;
            return false;
        }
        return true;
    }

    /**
     * Rule M1 (docs/SEMANTICS.md section 3.1): the rows of {@code rs[from..to)} whose state task
     * {@code k}'s {@code onTimer} just completed ({@code byCall}: reported a status, rule U5) keep its
     * timer run out, unless {@code onTimer} started it again: it is due at the row's next step (as a
     * countdown from 0 s), so that the task reports again the next time it is reached, as a per-tick
     * countdown would.
     */
    private void keepRunOut(int k, int[] rs, int from, int to, boolean byCall) {
        final ChunkBinding c = st;
        final int[] due = d.ints[t.taskTimerDueSlot(k)];
        final int next = c.step + c.period;
        // under unreal-5.8 a task that keeps its status is not reached again: its timer stays stopped (U9)
        final byte[] done = byCall ? doneFlags(k) : null;
        for (int i = from; i < to; i++) {
            int r = rs[i];
            int l = r - c.base;
            boolean completed = byCall ? callStatus[l] != RunStatus.RUNNING : ts.doneAt[l] == k;
            if (completed && due[r] == 0 && !faults.isFaulted(l) && (done == null || done[r] == 0)) {
                if (t.taskTimer(k) == TimerKind.SECONDS) {
                    d.floats[t.taskTimerValueSlot(k)][r] = 0f; // counted from 0 s: due at the next step
                }
                due[r] = next;
            }
        }
    }

    /** Rows of {@code rs[from..to)} that a call of task {@code k} completed: noted, and added to X. Returns how many are in A. */
    private int recordCompletions(int[] rs, int from, int to, int k) {
        final ChunkBinding c = st;
        final int base = c.base;
        int inA = 0;
        for (int i = from; i < to; i++) {
            int r = rs[i];
            int l = r - base;
            if (ts.status[l] != RunStatus.RUNNING && ts.doneAt[l] == NOT_DONE) {
                ts.doneAt[l] = k;
                extra.add(l, X_DONE);
                if (c.cs.isListed(l)) {
                    inA++;
                }
            }
        }
        return inA;
    }

    /**
     * After TickTasks: the timers of completed agents that TickTasks did not reach pause (due one
     * step later; the global tasks' timers never pause), and the statuses are written back.
     */
    void afterTasks(int[] xs, int xn) {
        final ChunkBinding c = st;
        final int base = c.base;
        final int period = c.period;
        final int globalTasks = t.globalTaskCount;
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - base;
            if ((extra.flags[l] & ExtraAgents.X_GLOBAL) != 0) {
                continue; // a global task finished its tree: the apply phase ends it
            }
            byte s = ts.status[l];
            if (s != RunStatus.RUNNING) {
                int leaf = c.stateOf(r) - 1;
                // under unreal-5.8 TickTasks reaches the tasks up to a failing one (rule U5)
                int from = t.unreal.on && ts.doneAt[l] != DONE_BEFORE ? pausesAfter(l) : ts.doneAt[l];
                for (int j = t.statePathTimersBegin(leaf), e = t.statePathTimersBegin(leaf + 1); j < e; j++) {
                    int k = t.pathTimerTasks(j);
                    if (k > from && k >= globalTasks) { // the global tasks were reached (rule G2)
                        int[] due = d.ints[t.taskTimerDueSlot(k)];
                        int dv = due[r];
                        if (dv != 0 && dv != NEVER) {
                            due[r] = dv + period;
                        }
                    }
                }
            }
            if (ts.doneAt[l] == NO_TASKS) {
                c.setLast(r, s, t.stateDepth(c.stateOf(r) - 1)); // rule U6: at its last state
            } else if (s == RunStatus.RUNNING || ts.doneAt[l] < 0) {
                c.setLast(r, s); // running, or completed before this tick: its completed depth stays
            } else {
                c.setLast(r, s, t.stateDepth(t.taskState(ts.doneAt[l])));
            }
        }
    }
}
