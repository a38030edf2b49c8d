package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;

import java.util.Arrays;

import static dev.crowdtree.statetree.exec.ExtraAgents.PERIODS;
import static dev.crowdtree.statetree.exec.TickStatus.NOT_DONE;

/**
 * One worker's part of the {@link Engine}: the StateTree algorithms of docs/SEMANTICS.md applied to one chunk at a time,
 * driven by the chunk's persistent {@link ChunkSchedule} so that a tick touches only the agents that
 * have something to do. This class holds the order of a chunk's tick and Start and Stop (sections 2,
 * 3 and 7); each phase is an object of its own, created with the runner and given only the parts it
 * uses: the {@link ChunkBinding} (the bound chunk, its columns and row accessors, the worker's
 * {@link NodeContext}), the set X of the step ({@link ExtraAgents}), the task phases' per-row statuses
 * ({@link TickStatus}), the decisions the scan leaves for the apply phase ({@link Decisions}) and the
 * faults ({@link NodeFaults}); each phase owns its own scratch. The runner sizes every part
 * ({@link #ensureCapacity}) and resets what X's rows left behind at the end of a chunk's tick.
 *
 * <p>A tick of a chunk ({@link #tickChunk}):
 * <ol>
 *   <li><b>Schedule</b> ({@link SchedulePhase}): collect the <em>extra</em> agents X of this step:
 *       those the wheel says are due, those with events, the sticky ones (completed or gated), and
 *       those with requests. The always-awake agents A (a ticking state on their path) need no
 *       collecting: they are the schedule's order. Every other running agent sleeps and is not
 *       touched.</li>
 *   <li><b>Evaluators</b> ({@link EvaluatorPhase}): EVERY_TICK evaluators over every running agent
 *       that takes part (sleeping or not), WHEN_AWAKE ones over A and X.</li>
 *   <li><b>Global tasks</b> ({@link GlobalTaskPhase}, rule G2; trees that have some): onTimer for
 *       the due X agents, the tick over A; an agent one of them completes finishes its tree.</li>
 *   <li><b>Tasks</b> ({@link TaskPhase}, TickTasks), states in ascending id order (root to leaf for
 *       every agent): each timer task gets {@code onTimer} for the X agents whose timer is due now;
 *       each ticking task ticks once over its state's slice of A. Then the timers of agents that
 *       completed pause (their due steps move one step later).</li>
 *   <li><b>Transitions</b> ({@link TransitionScan}), states in descending id order (leaf to root for
 *       every agent): onTick transitions test their condition kernels over the state's slice of A
 *       into a mask; event and completion transitions look only at X (only X agents can have events
 *       or a completed state). The first transition that passes decides, as in
 *       {@code TriggerTransitions} (in a tree with priorities, the best found, rule P1; under a
 *       root-first scan, states in ascending id order). Trees under {@code unreal-5.8}, and the
 *       completed agents of trees with composites, are scanned agent by agent instead ({@link AgentScan}).</li>
 *   <li><b>Apply</b> ({@link TransitionApply}) the fired transitions per agent (up to 4 more scalar
 *       rounds), then re-file ({@link SchedulePhase#refile}) every agent that was looked at: its group
 *       in the order, its wake-up in the wheel, its stickiness.</li>
 * </ol>
 * Agents with a tick period other than 1 are processed in one such pass per period (their dt
 * differs), over a per-tick order of the agents that take part in this step. Timers and gates are
 * due steps, not countdowns ({@link ChunkTimers}); events live in per-row lists ({@link ChunkEvents}).
 *
 * <p>Allocation: none while tracing is off, once the event pool and schedule lists have grown to
 * their high-water marks. THREADING: confined to its worker; a chunk writes only its own rows, its
 * {@link ChunkSchedule} and its {@link ChunkOutput}.
 */
final class ChunkRunner {
    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final TickStatus ts;
    private final Decisions dec;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final ChunkEvents events;
    private final ChunkTimers timers;
    private final SchedulePhase schedule;
    private final EvaluatorPhase evaluators;
    private final TaskPhase tasks;
    private final GlobalTaskPhase globals;
    private final TransitionScan scan;
    private final TransitionApply apply;
    /** The tasks' transition requests (rules O1-O4), in a tree whose tasks may request; else null. */
    private final TaskRequests taskRequests;
    private final EventRouter router;
    private final PhaseTimes times;
    /** Start's rows of a chunk. */
    private int[] cand = new int[0];
    /** The agents the evaluators counted awake in this chunk's tick. */
    private int awake;

    /**
     * A runner over {@code data}'s columns and {@code host}'s bindings, for agents of {@code world}; its
     * chunks' events are {@code router}'s, their host requests {@code requests}', and it times its
     * sub-phases into {@code times} when the frame says so.
     */
    ChunkRunner(InstanceData data, HostBinding host, World world, EventRouter router,
                HostRequests requests, PhaseTimes times) {
        st = new ChunkBinding(data, host, world);
        t = st.t;
        this.router = router;
        this.times = times;
        extra = new ExtraAgents(st);
        ts = new TickStatus();
        dec = new Decisions();
        faults = new NodeFaults(st, extra, ts, dec);
        events = new ChunkEvents(st, extra, router.mismatchKeys);
        timers = new ChunkTimers(st);
        schedule = new SchedulePhase(st, extra, dec, events, timers, router, requests);
        evaluators = new EvaluatorPhase(st, extra, faults);
        tasks = new TaskPhase(st, extra, ts, faults);
        globals = new GlobalTaskPhase(st, extra, ts, dec, faults);
        scan = new TransitionScan(st, extra, ts, dec, faults, events, timers);
        apply = new TransitionApply(st, extra, ts, dec, faults, events, scan.perAgent, globals);
        st.control.setOutbox(events);
        st.control.setEvents(events, st.t.payloads.fieldCount(), st.t.payloads.valueField());
        st.control.setTimers(timers);
        taskRequests = st.t.requestsTransitions ? new TaskRequests(st, extra) : null;
        st.control.setRequests(taskRequests);
    }

    /** The node error policy (rule R1): isolate the agents of a throwing call, or rethrow. */
    void setIsolate(boolean isolate) {
        faults.isolate = isolate;
    }

    /** Sizes scratch for chunks of {@code n} rows (simulation thread, before phases). */
    void ensureCapacity(int n) {
        if (n <= st.capacity) {
            return;
        }
        st.ensureCapacity(n);
        extra.ensureCapacity(n);
        ts.ensureCapacity(n);
        dec.ensureCapacity(n);
        faults.ensureCapacity(n);
        events.ensureCapacity(n);
        schedule.ensureCapacity(n);
        evaluators.ensureCapacity(n);
        globals.ensureCapacity(n);
        tasks.ensureCapacity(n);
        scan.ensureCapacity(n);
        cand = new int[n];
    }

    /** Binds the columns, the chunk and the call's frame. */
    private void begin(ChunkSchedule cs, int chunkBase, int chunkEnd, ChunkOutput output, TickFrame frame) {
        output.toOthers.limit = output.carried.limit = StateTreeRuntime.MAX_PENDING_EVENTS * (chunkEnd - chunkBase);
        st.bind(cs, chunkBase, chunkEnd, output, frame);
        st.control.bindStatus(ts.status, chunkBase);
        events.clear();
    }

    // =============================================================================================
    // Tick of one chunk
    // =============================================================================================

    /**
     * One tick of {@code chunk} (its index, rows and worker) with its schedule {@code cs} and output:
     * the tick's number, step, dt and the observers' switches are the {@code frame}'s, its events the
     * router's, which the simulation thread wrote before the executor ran the kernel.
     */
    void tickChunk(Chunk chunk, ChunkSchedule cs, ChunkOutput output, TickFrame frame) {
        final int index = chunk.index();
        final int chunkBase = chunk.begin();
        final int chunkEnd = chunk.end();
        final int stepNumber = frame.step;
        final EventRouter router = this.router;
        final EventBuffer evs = router.byChunk;
        final int evBegin = router.chunkEventBegin[index];
        final int evEnd = router.chunkEventBegin[index + 1];
        final long[] phaseNanos = frame.timing ? times.of(chunk.worker()) : null;
        final long t0 = phaseNanos != null ? System.nanoTime() : 0;
        final ChunkBinding c = st;
        begin(cs, chunkBase, chunkEnd, output, frame);
        c.hostDt = frame.dt;
        if (cs.dirty || cs.base != chunkBase || cs.rows != c.rows) {
            schedule.rebuild(stepNumber - 1);
        } else if (cs.scattered > cs.listed() >> 1) {
            cs.sortOrder(); // half the order moved since it was last in row order
        }
        dec.epoch++;
        awake = 0;
        Arrays.fill(extra.count, 0);
        schedule.collect(evs, evBegin, evEnd);
        for (int p = 0; p < PERIODS; p++) {
            if (extra.count[p] > 0) {
                c.touch(extra.rows[p], 0, extra.count[p]);
            }
        }
        final long t1 = phaseNanos != null ? System.nanoTime() : 0;
        faults.ticking = true;
        if (taskRequests != null) {
            taskRequests.ticking = true;
        }
        if (cs.running > 0) {
            if (cs.periodAgents == 0) {
                int n = 0;
                if (t.everyTickEvaluatorCount() > 0 && cs.running < c.rows) {
                    n = schedule.allRunningRows(schedule.evalRows[0]); // else every row runs: the evaluators take the range
                }
                pass(0, cs.order, cs.groupBegin, schedule.evalRows[0], n, phaseNanos);
            } else {
                schedule.splitByPeriod();
                for (int p = 0; p < PERIODS; p++) {
                    int[] ab = schedule.lodBegin[p];
                    if (ab[c.groups] > ab[0] || extra.count[p] > 0 || schedule.evalCount[p] > 0) {
                        pass(p, schedule.lodOrder, ab, schedule.evalRows[p], schedule.evalCount[p], phaseNanos);
                    }
                }
            }
        }
        faults.ticking = false;
        if (taskRequests != null) {
            taskRequests.ticking = false;
        }
        // Reset the per-row scratch X touched (every flagged, completed, faulted or event-holding row is in X).
        final byte[] xFlags = extra.flags;
        final byte[] status = ts.status;
        final byte[] globalStatus = ts.globalStatus;
        final int[] doneAt = ts.doneAt;
        final int base = c.base;
        for (int p = 0; p < PERIODS; p++) {
            int[] xs = extra.rows[p];
            for (int i = 0, n = extra.count[p]; i < n; i++) {
                int l = xs[i] - base;
                xFlags[l] = 0;
                status[l] = RunStatus.RUNNING;
                globalStatus[l] = RunStatus.RUNNING;
                doneAt[l] = NOT_DONE;
                events.clearRow(l);
                faults.clear(l);
            }
        }
        faults.count = 0;
        c.out.awake += awake;
        if (c.recording && c.countingAll) {
            countOccupancy();
        }
        if (phaseNanos != null) {
            phaseNanos[0] += t1 - t0;
        }
    }

    /** For the {@link Recorder}: the chunk's running agents by the last state of their active path. */
    private void countOccupancy() {
        final ChunkBinding c = st;
        final long[] occupancy = c.out.occupancy;
        for (int r = c.base, end = c.base + c.rows; r < end; r++) {
            if (c.runOf(r) == RunStatus.RUNNING) {
                occupancy[c.stateOf(r) - 1]++;
            }
        }
    }

    /**
     * One pass of the tick for the agents of period {@code 1 << log}: always-awake ones in
     * {@code aOrder} grouped by {@code aBegin}, extra ones in {@code x[log]}, every running one that
     * takes part in {@code evals} (for EVERY_TICK evaluators).
     */
    private void pass(int log, int[] aOrder, int[] aBegin, int[] evals, int evalN, long[] phaseNanos) {
        final long t1 = phaseNanos != null ? System.nanoTime() : 0;
        final ChunkBinding c = st;
        c.listLog = log;
        c.period = 1 << log;
        c.control.setTime(c.seed, c.tick, c.period * c.hostDt);
        events.outboxMode = ChunkEvents.TO_E;
        final int aFrom = aBegin[0];
        final int aTo = aBegin[c.groups];
        c.touchOrder(aOrder, aFrom, aTo);
        awake += evaluators.tick(log, aOrder, aFrom, aTo, evals, evalN);
        final long t2 = phaseNanos != null ? System.nanoTime() : 0;
        if (aTo == aFrom && extra.count[log] == 0) {
            if (phaseNanos != null) {
                phaseNanos[1] += t2 - t1;
            }
            return;
        }
        // X in state order, with the status each starts TickTasks with.
        int[] xs = extra.rows[log];
        int xn = schedule.sortByState(xs, extra.count[log]);
        schedule.sliceX(xs, xn);
        dec.fired = 0;
        int doneInA = tasks.startStatuses(xs, xn);
        if (faults.count > 0) {
            doneInA += faults.decidePending(); // the evaluators' faults (rule R1)
        }
        if (t.globalTaskCount > 0) {
            doneInA += globals.tick(aOrder, aFrom, aTo, xs, xn); // rule G2: before the state tasks
        }
        tasks.tickTasks(aOrder, aBegin, xn, doneInA);
        if (extra.count[log] != xn) {
            xn = schedule.sortByState(xs, extra.count[log]); // completed always-awake agents joined X
            schedule.sliceX(xs, xn);
        }
        tasks.afterTasks(xs, xn);
        final long t3 = phaseNanos != null ? System.nanoTime() : 0;
        scan.detectTransitions(aOrder, aBegin, xs, xn);
        final long t4 = phaseNanos != null ? System.nanoTime() : 0;
        events.outboxMode = ChunkEvents.TO_P;
        apply.applyFired();
        // re-file every agent looked at: X (including the fired ones, just added)
        xs = extra.rows[log];
        for (int i = 0, n = extra.count[log]; i < n; i++) {
            schedule.refile(xs[i]);
        }
        final long t5 = phaseNanos != null ? System.nanoTime() : 0;
        if (phaseNanos != null) {
            phaseNanos[1] += t2 - t1;
            phaseNanos[2] += t3 - t2;
            phaseNanos[3] += t4 - t3;
            phaseNanos[4] += t5 - t4;
        }
    }

    /**
     * The dt the timers were derived from changed from {@code oldDt} to {@code newDt} before step
     * {@code k}: re-derive every running timer and gate of the chunk's rows {@code [from, to)}.
     */
    void rebaseChunk(int from, int to, int k, float oldDt, float newDt) {
        timers.rebaseChunk(from, to, k, oldDt, newDt);
    }

    // =============================================================================================
    // Start and Stop of a range of rows (per chunk)
    // =============================================================================================

    /**
     * Start (docs/SEMANTICS.md section 2) for rows {@code rows[0..n)} of the chunk: stops running
     * trees, starts evaluators and ticks them with dt 0, then per agent enters the global tasks
     * (rule G1) and selects and enters the states. The chunk
     * is rebuilt before its next tick.
     */
    private void startRows(int[] rs, int n) {
        final ChunkBinding c = st;
        events.outboxMode = ChunkEvents.TO_P;
        c.control.setTime(c.seed, c.tick, 0f);
        for (int i = 0; i < n; i++) {
            int r = rs[i];
            if (c.runOf(r) == RunStatus.RUNNING) {
                stopRow(r);
            }
            if (c.traced(r)) {
                c.trace(r, TraceFormat.start(c.tick));
            }
        }
        faults.resetAll(); // a throw while stopping the old tree does not fail the new one
        evaluators.start(rs, n);
        for (int i = 0; i < n; i++) {
            int r = rs[i];
            c.setRun(r, RunStatus.RUNNING);
            c.setState(r, 0);
            c.setLast(r, RunStatus.UNSET);
            for (short[] memory : c.d.history) {
                memory[r] = HistoryStates.NO_MEMORY; // rule Y5: Start clears the history states' memories
            }
            if (faults.isFaulted(r - c.base)) {
                apply.finishTree(r, RunStatus.FAILED, RunStatus.FAILED, 0); // an evaluator threw (rule R1)
                continue;
            }
            if (t.globalTaskCount > 0) {
                long entering = globals.enter(r); // rule G1: before the root is selected
                int entered = GlobalTaskPhase.enteredOf(entering);
                if (faults.isFaulted(r - c.base)) {
                    apply.finishTree(r, RunStatus.FAILED, RunStatus.FAILED, entered);
                    events.carryPending(r);
                    continue;
                }
                byte g = GlobalTaskPhase.statusOf(entering);
                if (g != RunStatus.RUNNING) {
                    if (c.traced(r)) {
                        c.trace(r, TraceFormat.taskCompleted(c.tick, t, GlobalTaskPhase.completedOf(entering), g));
                    }
                    apply.finishTree(r, g, g, entered);
                    events.carryPending(r);
                    continue;
                }
            }
            int leaf = scan.selection.selectInternal(r, 0);
            if (leaf >= 0 && !faults.isFaulted(r - c.base)) {
                apply.enterState(r, -1, 0, leaf, CompiledStateTree.MAX_DEPTH); // sets its last status
            }
            if (faults.isFaulted(r - c.base)) {
                apply.finishByFault(r); // an enter condition or EnterState threw (rule R1)
            } else if (c.stateOf(r) == 0) {
                apply.failTree(r);
            } else if (t.tickPeriods.any) {
                c.aimPeriod(r); // rule Z3: the period of the path Start entered, at the first step aligned to both
            }
            events.carryPending(r);
        }
        faults.resetAll();
        c.cs.dirty = true;
    }

    /** Start for every row of a chunk whose tree is {@code UNSET} (never started) or, if {@code all}, every row. */
    void startChunk(ChunkSchedule cs, int chunkBase, int chunkEnd, boolean all, ChunkOutput output, TickFrame frame) {
        final int stepNumber = frame.step;
        begin(cs, chunkBase, chunkEnd, output, frame);
        final int[] cand = this.cand;
        int n = 0;
        for (int r = chunkBase; r < chunkEnd; r++) {
            if (all || st.runOf(r) == RunStatus.UNSET) {
                cand[n++] = r;
            }
        }
        if (n > 0) {
            startRows(cand, n);
            // the schedule the next tick needs, built here (in the start's parallel kernel), not in
            // that tick; it stands where the tick's rebuild would have put it (the step before)
            schedule.rebuild(stepNumber);
        }
    }

    /** Stop for the running rows {@code [from, to)} of a chunk. */
    void stopRange(ChunkSchedule cs, int chunkBase, int chunkEnd, int from, int to, ChunkOutput output,
                   TickFrame frame) {
        begin(cs, chunkBase, chunkEnd, output, frame);
        events.outboxMode = ChunkEvents.TO_P;
        st.control.setTime(st.seed, st.tick, 0f);
        for (int r = from; r < to; r++) {
            if (st.runOf(r) == RunStatus.RUNNING) {
                stopRow(r);
            }
        }
        faults.resetAll();
        cs.dirty = true;
    }

    /** Stop (section 7) of one running row: its states, then its global tasks; its pending events are dropped with the tree. */
    private void stopRow(int r) {
        final ChunkBinding c = st;
        apply.exitState(r, c.stateOf(r) - 1, -1, -1, true, RunStatus.STOPPED, CompiledStateTree.MAX_DEPTH);
        if (t.globalTaskCount > 0) {
            globals.exit(r, t.globalTaskCount, RunStatus.STOPPED); // rule G3: after the states
        }
        evaluators.stop(r);
        c.setRun(r, RunStatus.STOPPED);
        c.setState(r, 0);
        schedule.applyPendingPeriod(r);
        events.dropPending(r);
        if (c.traced(r)) {
            c.trace(r, TraceFormat.tree(c.tick, "stopped"));
        }
    }
}
