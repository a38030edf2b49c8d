package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;

import static dev.crowdtree.statetree.exec.Decisions.GLOBAL_DONE;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_DUE;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_GLOBAL;

/**
 * The global tasks in the batched runtime (docs/SEMANTICS.md, rules G1-G3; tasks
 * {@code 0 .. globalTaskCount-1} of the compiled tree). In a pass, before the state tasks, each
 * global task in declared order gets {@code onTimer} for the X agents whose timer is due now, then
 * its tick over the pass's always-awake agents (a global task with a tick makes the root ticking,
 * so then every running agent of the pass is always awake), whatever their last tick status. An
 * agent whose counted global task completed leaves the batches and is decided
 * ({@link Decisions#GLOBAL_DONE}, the status in {@link TickStatus#globalStatus}): the apply phase
 * finishes its tree, and no state task or transition of it runs in this tick. Per agent: the
 * entering at Start, and the exiting when the tree finishes or stops. One call per (task, batch)
 * in a tick, as for state tasks; trees without global tasks never come here.
 *
 * <p>Allocation: none. THREADING: confined to its worker.
 */
final class GlobalTaskPhase {
    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final TickStatus ts;
    private final Decisions dec;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final InstanceData d;
    private final NodeContext ctx;
    private final ContextControl control;
    /** Rows of a call's batch built here (due timers, the running rows of A). */
    private int[] cand = new int[0];

    GlobalTaskPhase(ChunkBinding state, ExtraAgents extra, TickStatus ts, Decisions dec, NodeFaults faults) {
        this.st = state;
        this.extra = extra;
        this.ts = ts;
        this.dec = dec;
        this.faults = faults;
        this.t = state.t;
        this.d = state.d;
        this.ctx = state.ctx;
        this.control = state.control;
    }

    void ensureCapacity(int n) {
        cand = new int[n];
    }

    /**
     * The global tasks of the pass (rule G2): always-awake agents {@code aOrder[aFrom..aTo)}, the
     * state-sorted X agents {@code xs[0..xn)}. Returns how many agents that were running in A it
     * finished (they joined X).
     */
    int tick(int[] aOrder, int aFrom, int aTo, int[] xs, int xn) {
        final ChunkBinding c = st;
        final int b = c.base;
        final byte[] g = ts.globalStatus;
        final byte[] xFlags = extra.flags;
        final int[] cand = this.cand;
        final int step = c.step;
        int finishedInA = 0;
        boolean anyFinished = faults.count > 0; // faulted agents are no longer running (rule R1)
        control.bindStatus(g, b);
        for (int k = 0, n = t.globalTaskCount; k < n; k++) {
            Task task = t.task(k);
            control.setBackground(!t.taskConsidered(k));
            if (t.taskTimer(k) != TimerKind.NONE && xn > 0) {
                final int[] due = d.ints[t.taskTimerDueSlot(k)];
                int m = 0;
                for (int i = 0; i < xn; i++) {
                    int r = xs[i];
                    int l = r - b;
                    if ((xFlags[l] & X_DUE) != 0 && g[l] == RunStatus.RUNNING && due[r] == step) {
                        due[r] = 0; // ran out: stopped (onTimer may start it again)
                        cand[m++] = r;
                    }
                }
                if (m > 0) {
                    control.resetCompletions();
                    control.setTask(k, t.taskTimer(k));
                    try {
                        task.onTimer(ctx, cand, 0, m);
                    } catch (RuntimeException | StackOverflowError e) {
                        finishedInA += faults.fault(cand, 0, m, "global task", task, k, e, true);
                        anyFinished = true;
                    } finally {
                        control.setTask(-1, TimerKind.NONE);
                    }
                    if (control.completions() > 0) {
                        finishedInA += finished(cand, 0, m, k);
                        anyFinished = true;
                    }
                }
            }
            if (task.ticks() && aFrom < aTo) {
                control.resetCompletions();
                if (!anyFinished) {
                    anyFinished = tick(task, k, aOrder, aFrom, aTo);
                    finishedInA += faultedInA;
                    if (control.completions() > 0) {
                        finishedInA += finished(aOrder, aFrom, aTo, k);
                        anyFinished = true;
                    }
                } else {
                    int m = 0;
                    for (int i = aFrom; i < aTo; i++) {
                        int r = aOrder[i];
                        if (g[r - b] == RunStatus.RUNNING) {
                            cand[m++] = r;
                        }
                    }
                    if (m > 0) {
                        tick(task, k, cand, 0, m);
                        finishedInA += faultedInA;
                        if (control.completions() > 0) {
                            finishedInA += finished(cand, 0, m, k);
                        }
                    }
                }
            }
        }
        control.setBackground(false);
        control.bindStatus(ts.status, b);
        return finishedInA;
    }

    /** Rows of A the last {@link #tick(Task, int, int[], int, int)} failed (rule R1). */
    private int faultedInA;

    /** Global task {@code k}'s tick over {@code rs[from..to)}; a throw fails those rows. Returns whether any row ended. */
    private boolean tick(Task task, int k, int[] rs, int from, int to) {
        faultedInA = 0;
        try {
            task.tick(ctx, rs, from, to);
            return false;
        } catch (RuntimeException | StackOverflowError e) {
            faultedInA = faults.fault(rs, from, to, "global task", task, k, e, true);
            return true;
        }
    }

    /**
     * Rows of {@code rs[from..to)} that a call of global task {@code k} completed: they skip the
     * state tasks (a status other than RUNNING), join X and are decided for the apply phase.
     * Returns how many of them were running agents of A.
     */
    private int finished(int[] rs, int from, int to, int k) {
        final ChunkBinding c = st;
        final int b = c.base;
        int inA = 0;
        for (int i = from; i < to; i++) {
            int r = rs[i];
            int l = r - b;
            if (ts.globalStatus[l] != RunStatus.RUNNING && (extra.flags[l] & X_GLOBAL) == 0) {
                if (ts.status[l] == RunStatus.RUNNING && c.cs.isListed(l)) {
                    inA++;
                }
                ts.status[l] = ts.globalStatus[l];
                ts.doneAt[l] = k;
                extra.add(l, X_GLOBAL);
                dec.decStamp[l] = dec.epoch; // no transition is scanned for it in this tick
                dec.firedTransition[l] = GLOBAL_DONE;
                dec.firedRows[dec.fired++] = r;
            }
        }
        return inA;
    }

    /**
     * Start's entering of the global tasks for row {@code r} (rule G1), as a state's tasks are
     * entered: a failure stops the entering and decides FAILED, a success decides SUCCEEDED unless
     * a later task fails. Returns the outcome packed with what the caller needs to finish the tree:
     * {@link #statusOf} (RUNNING, SUCCEEDED or FAILED), {@link #enteredOf} (how many global tasks
     * were entered: those get ExitState) and {@link #completedOf} (the task that decided, -1: none).
     */
    long enter(int r) {
        final ChunkBinding c = st;
        byte result = RunStatus.RUNNING;
        int completedTask = -1;
        int entered = 0;
        control.setChange(ChangeType.CHANGED, -1, -1);
        for (int k = 0, n = t.globalTaskCount; k < n; k++) {
            int status = faults.enterTask(k, r, "global task");
            if (status == NodeFaults.THREW) {
                return entering(RunStatus.FAILED, entered, k); // entered stays k: the one that threw gets no ExitState
            }
            byte s = (byte) status;
            if (!t.taskConsidered(k)) {
                s = RunStatus.RUNNING; // a background task never finishes the tree
            }
            entered = k + 1;
            if (c.traced(r)) {
                c.trace(r, TraceFormat.taskEnter(c.tick, t, k, s == RunStatus.FAILED));
            }
            if (s == RunStatus.FAILED) {
                return entering(RunStatus.FAILED, entered, k);
            }
            if (s == RunStatus.SUCCEEDED && result == RunStatus.RUNNING) {
                completedTask = k;
                result = RunStatus.SUCCEEDED;
            }
        }
        return entering(result, entered, completedTask);
    }

    /** {@link #enter}'s result: the task that decided + 1 in the high half, the count entered above the status byte. */
    private static long entering(byte status, int entered, int completedTask) {
        return (long) (completedTask + 1) << 32 | (long) entered << 8 | (status & 0xFF);
    }

    /** The outcome of {@link #enter}: RUNNING, SUCCEEDED or FAILED. */
    static byte statusOf(long entering) {
        return (byte) entering;
    }

    /** How many global tasks {@link #enter} entered (they get ExitState when the tree finishes). */
    static int enteredOf(long entering) {
        return (int) entering >>> 8;
    }

    /** The global task whose status decided {@link #enter}'s outcome, or -1. */
    static int completedOf(long entering) {
        return (int) (entering >>> 32) - 1;
    }

    /** Exits the first {@code count} global tasks of row {@code r} in reverse order (rule G3). */
    void exit(int r, int count, byte exitStatus) {
        final ChunkBinding c = st;
        control.setExitStatus(exitStatus);
        control.setChange(ChangeType.CHANGED, -1, -1);
        for (int k = count - 1; k >= 0; k--) {
            if (k == faults.taskOf(r - c.base)) {
                continue; // rule R1: the task that threw gets no ExitState
            }
            try {
                t.task(k).exitState(ctx, r);
            } catch (RuntimeException | StackOverflowError e) {
                faults.faultOne(r, "global task", t.task(k), k, e); // rule R3: the exit goes on
            }
            if (c.traced(r)) {
                c.trace(r, TraceFormat.taskExit(c.tick, t, k));
            }
        }
    }
}
