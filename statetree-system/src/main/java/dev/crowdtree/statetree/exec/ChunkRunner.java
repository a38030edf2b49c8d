package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.EventOutbox;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.TimerService;

import java.util.Arrays;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.GOTO;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.NOT_SET;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TO_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TO_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_EVENT;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_TICK;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRY_ENTER;
import static dev.crowdtree.statetree.exec.InstanceData.NEVER;

/**
 * One worker's engine: chunk-sized scratch, a {@link NodeContext}, and the StateTree algorithms of
 * docs/SEMANTICS.md applied to one chunk at a time, driven by the chunk's persistent
 * {@link ChunkSchedule} so that a tick touches only the agents that have something to do.
 *
 * <p>A tick of a chunk ({@link #tickChunk}):
 * <ol>
 *   <li><b>Schedule</b>: collect the <em>extra</em> agents X of this step: those the wheel says are
 *       due, those with events, the sticky ones (completed or gated), and those with requests. The
 *       always-awake agents A (a ticking state on their path) need no collecting: they are the
 *       schedule's order. Every other running agent sleeps and is not touched.</li>
 *   <li><b>Evaluators</b>: EVERY_TICK evaluators over every running agent that takes part
 *       (sleeping or not), WHEN_AWAKE ones over A and X.</li>
 *   <li><b>Tasks</b> (TickTasks), states in ascending id order (root to leaf for every agent): each
 *       timer task gets {@code onTimer} for the X agents whose timer is due now; each ticking task
 *       ticks once over its state's slice of A. Then the timers of agents that completed pause (their
 *       due steps move one step later).</li>
 *   <li><b>Transitions</b>, states in descending id order (leaf to root for every agent): onTick
 *       transitions test their condition kernels over the state's slice of A into a mask; event and
 *       completion transitions look only at X (only X agents can have events or a completed state).
 *       The first transition that passes decides, as in {@code TriggerTransitions}.</li>
 *   <li><b>Apply</b> the fired transitions per agent (up to 4 more scalar rounds), then re-file every
 *       agent that was looked at: its group in the order, its wake-up in the wheel, its stickiness.</li>
 * </ol>
 * Agents with a tick period other than 1 are processed in one such pass per period (their dt
 * differs), over a per-tick order of the agents that take part in this step.
 *
 * <p>Timers are due steps, not countdowns: a SECONDS timer started at step s with t seconds is due
 * at {@code s + Countdown.steps(t, p * dt) * p}, exactly the step at which counting down by
 * {@code p * dt} per step reaches zero; a pause adds p; a change of dt or of period re-derives the
 * due step from the value counted so far ({@code Countdown.after}). Gates the same way.
 *
 * <p>Allocation: none while tracing is off, once the event pool and schedule lists have grown to
 * their high-water marks. THREADING: confined to its worker; a chunk writes only its own rows, its
 * {@link ChunkSchedule} and its {@link ChunkOutput}.
 */
final class ChunkRunner implements EventOutbox, TimerService {
    /** {@link #firedTransition} value for the restart from root. */
    private static final int RESTART = -2;
    /** Outbox modes: events to self go to E (this tick) or to P (next round / next tick). */
    private static final int TO_E = 0, TO_P = 1;
    /** {@link #xFlags}: in X / a timer is due / has events / completed / fired. */
    private static final byte X_IN = 1, X_DUE = 2, X_EVENT = 4, X_DONE = 8, X_FIRED = 16;
    /** {@link #doneAt}: not completed / completed before this tick (every timer pauses). */
    private static final int NOT_DONE = -2, DONE_BEFORE = -1;
    private static final int PERIODS = 7;
    private static final int EV_INITIAL = 1024;

    private final StateTreeSystem sys;
    private final CompiledStateTree t;
    private final InstanceData d;
    final NodeContext ctx = new NodeContext();
    private final int groups;

    // ---- chunk-sized scratch, indexed by local row unless said otherwise ----
    private int capacity;
    /** X per period (log2), global rows; sorted by last active state before TickTasks. */
    private final int[][] x = new int[PERIODS][0];
    private final int[] xCount = new int[PERIODS];
    private byte[] xFlags = new byte[0];
    private byte[] status = new byte[0];
    private int[] doneAt = new int[0];
    /** Decided in this pass (fired or blocked) when equal to {@link #epoch}. */
    private int[] decStamp = new int[0];
    private int epoch;
    private int[] firedTransition = new int[0];
    private int[] nextLeaf = new int[0];
    private int[] oldLeaf = new int[0];
    private int[] firedRows = new int[0];
    private int fired;
    private int[] cand = new int[0];
    private boolean[] pass = new boolean[0];
    private boolean[] tmp = new boolean[0];
    private int[] popped = new int[0];
    private int[] groupOf = new int[0];
    /** Rows for EVERY_TICK evaluators per period, and their counts. */
    private final int[][] evalRows = new int[PERIODS][0];
    private final int[] evalCount = new int[PERIODS];
    /** Per-step order of the always-awake agents that take part, by (period, group), for chunks with periods. */
    private int[] lodOrder = new int[0];
    private final int[][] lodBegin;
    private final int[] histogram;
    /** Per state, where its agents start in the state-sorted X of the pass ({@link #sliceX}). */
    private final int[] xBegin;
    private final int[] one = new int[1];
    private final boolean[] oneOut = new boolean[1];
    private final int[] chain = new int[CompiledStateTree.MAX_DEPTH];
    private final int[] exited = new int[CompiledStateTree.MAX_DEPTH];
    private final int[] nextPath = new int[CompiledStateTree.MAX_DEPTH];
    private final byte[] exitedChange = new byte[CompiledStateTree.MAX_DEPTH];

    // per-row event lists (by local row) over a pooled linked list; heads are -1 outside X
    private int[] eHead = new int[0];
    private int[] eTail = new int[0];
    private int[] pHead = new int[0];
    private int[] pTail = new int[0];
    // the chunk's events this tick, a linked list per row; room for 1,024 before the first growth
    private int[] evTag = new int[EV_INITIAL];
    private float[] evPayload = new float[EV_INITIAL];
    private boolean[] evHas = new boolean[EV_INITIAL];
    private boolean[] evDead = new boolean[EV_INITIAL];
    private int[] evNext = new int[EV_INITIAL];
    private int evSize;

    // ---- the chunk being processed ----
    private ChunkSchedule cs;
    private int base;
    private int rows;
    private int step;
    private long tick;
    private float hostDt;
    /** The period of the pass being run (1 outside tick passes: start and stop). */
    private int period = 1;
    private int listLog;
    private int outboxMode;
    private ChunkOutput out;
    private boolean tracing;
    private int traceAgent;
    private int awake;
    /** The packed execution state per row ({@link InstanceData#exec}). */
    private long[] exec;
    private short[] gate;
    private float[] gateValue;
    private int[] gateDue;
    private int[] changes;
    private int[] ids;

    ChunkRunner(StateTreeSystem sys, InstanceData data) {
        this.sys = sys;
        this.t = data.tree;
        this.d = data;
        this.groups = t.awakeGroupCount;
        this.lodBegin = new int[PERIODS][groups + 1];
        this.histogram = new int[t.stateCount + 1];
        this.xBegin = new int[t.stateCount + 1];
        ctx.setOutbox(this);
        ctx.setTimers(this);
    }

    /** Sizes scratch for chunks of {@code n} rows (simulation thread, before phases). */
    void ensureCapacity(int n) {
        if (n <= capacity) {
            return;
        }
        capacity = n;
        for (int p = 0; p < PERIODS; p++) {
            x[p] = new int[n];
            evalRows[p] = new int[n];
        }
        xFlags = new byte[n];
        status = new byte[n];
        Arrays.fill(status, RunStatus.RUNNING);
        doneAt = new int[n];
        Arrays.fill(doneAt, NOT_DONE);
        decStamp = new int[n];
        firedTransition = new int[n];
        nextLeaf = new int[n];
        oldLeaf = new int[n];
        firedRows = new int[n];
        cand = new int[n];
        pass = new boolean[n];
        tmp = new boolean[n];
        popped = new int[n];
        groupOf = new int[n];
        lodOrder = new int[n];
        eHead = new int[n];
        eTail = new int[n];
        pHead = new int[n];
        pTail = new int[n];
        Arrays.fill(eHead, -1);
        Arrays.fill(pHead, -1);
        ctx.ensureScratch(t.maxConditionDepth + 1, n);
    }

    // ---- the packed execution state (InstanceData#exec): inlined by the JIT ----

    /** Set while a gate is pending: the gate column is read only then (it is another cache line). */
    private static final long GATE_BIT = 1L << 37;

    /** Last active state + 1 (0: empty path). */
    private int stateOf(int r) {
        return (int) exec[r] & 0xFFFF;
    }

    private void setState(int r, int v) {
        exec[r] = (exec[r] & ~0xFFFFL) | (v & 0xFFFF);
    }

    /** The task whose EnterState failed + 1 (0: none). */
    private int failedOf(int r) {
        return (int) (exec[r] >>> 16) & 0xFFFF;
    }

    private void setFailed(int r, int v) {
        exec[r] = (exec[r] & ~(0xFFFFL << 16)) | ((long) (v & 0xFFFF) << 16);
    }

    private byte runOf(int r) {
        return (byte) ((exec[r] >>> 32) & 7);
    }

    private void setRun(int r, byte v) {
        exec[r] = (exec[r] & ~(7L << 32)) | ((long) v << 32);
    }

    private byte lastOf(int r) {
        return (byte) ((exec[r] >>> 35) & 3);
    }

    private void setLast(int r, byte v) {
        exec[r] = (exec[r] & ~(3L << 35)) | ((long) v << 35);
    }

    /** The tick period byte: log2 in bits 0-2, a requested log2 in bits 4-6, bit 7 while requested. */
    private byte lodOf(int r) {
        return (byte) (exec[r] >>> 40);
    }

    private void setLod(int r, byte v) {
        exec[r] = (exec[r] & ~(0xFFL << 40)) | ((long) (v & 0xFF) << 40);
    }

    /** Binds the columns and the chunk. */
    private void begin(ChunkSchedule schedule, int chunkBase, int chunkEnd, ChunkOutput output, long tickNumber, int stepNumber) {
        cs = schedule;
        base = chunkBase;
        rows = chunkEnd - chunkBase;
        out = output;
        tick = tickNumber;
        step = stepNumber;
        tracing = sys.tracing();
        traceAgent = sys.traceAgent();
        exec = d.exec;
        gate = d.gate;
        gateValue = d.gateValue;
        gateDue = d.gateDue;
        changes = d.changes;
        ids = d.ids;
        ctx.bindSlots(d.floats, d.ints, d.bools, ids);
        ctx.bindStatus(status, chunkBase);
        evSize = 0;
        period = 1;
    }

    // =============================================================================================
    // Tick of one chunk
    // =============================================================================================

    void tickChunk(ChunkSchedule schedule, int chunkBase, int chunkEnd, ChunkOutput output, long tickNumber,
                   int stepNumber, float dt, EventBuffer events, int evBegin, int evEnd, long[] phaseNanos) {
        final long t0 = phaseNanos != null ? System.nanoTime() : 0;
        begin(schedule, chunkBase, chunkEnd, output, tickNumber, stepNumber);
        hostDt = dt;
        if (cs.dirty || cs.base != chunkBase || cs.rows != rows) {
            rebuild(stepNumber - 1);
        }
        epoch++;
        awake = 0;
        Arrays.fill(xCount, 0);
        collect(events, evBegin, evEnd);
        for (int p = 0; p < PERIODS; p++) {
            if (xCount[p] > 0) {
                touch(x[p], 0, xCount[p]);
            }
        }
        final long t1 = phaseNanos != null ? System.nanoTime() : 0;
        if (cs.running > 0) {
            if (cs.periodAgents == 0) {
                int n = 0;
                if (t.evaluatorsEveryTick.length > 0 && cs.running < rows) {
                    n = allRunningRows(evalRows[0]); // else every row runs: the evaluators take the range
                }
                pass(0, cs.order, cs.groupBegin, evalRows[0], n, phaseNanos);
            } else {
                splitByPeriod();
                for (int p = 0; p < PERIODS; p++) {
                    int[] ab = lodBegin[p];
                    if (ab[groups] > ab[0] || xCount[p] > 0 || evalCount[p] > 0) {
                        pass(p, lodOrder, ab, evalRows[p], evalCount[p], phaseNanos);
                    }
                }
            }
        }
        // Reset the per-row scratch X touched (every flagged, completed or event-holding row is in X).
        for (int p = 0; p < PERIODS; p++) {
            int[] xs = x[p];
            for (int i = 0, n = xCount[p]; i < n; i++) {
                int l = xs[i] - base;
                xFlags[l] = 0;
                status[l] = RunStatus.RUNNING;
                doneAt[l] = NOT_DONE;
                eHead[l] = -1;
            }
        }
        out.awake += awake;
        if (phaseNanos != null) {
            phaseNanos[0] += t1 - t0;
        }
    }

    /**
     * Step 1: requests, due agents, events, sticky agents and wake-all into X (per period), and
     * events into the per-row lists. Events for agents that do not take part in this step wait: they
     * are carried to the next tick.
     */
    private void collect(EventBuffer events, int evBegin, int evEnd) {
        final ChunkSchedule s = cs;
        final int b = base;
        drainRequests();
        int np = s.advance(step, popped, 0);
        for (int i = 0; i < np; i++) {
            addX(popped[i], X_DUE);
        }
        if (evEnd > evBegin) {
            long acc = 0;
            for (int i = evBegin; i < evEnd; i++) {
                acc += exec[sys.eventRow(i)]; // independent loads first: see touch
            }
            sink += acc;
        }
        for (int i = evBegin; i < evEnd; i++) {
            int r = sys.eventRow(i);
            if (runOf(r) != RunStatus.RUNNING) {
                continue; // dropped with the tree (Q-A15)
            }
            if (!takesPart(r)) {
                out.carried.add(ids[r], events.tag[i], events.payload[i], events.hasPayload[i]);
                continue;
            }
            append(r - b, events.tag[i], events.payload[i], events.hasPayload[i], true);
            addX(r - b, X_EVENT);
        }
        if (s.stickyCount > 0) {
            int kept = 0;
            for (int i = 0; i < s.stickyCount; i++) {
                int l = s.sticky[i];
                int r = b + l;
                if (runOf(r) != RunStatus.RUNNING || !sticky(r)) {
                    s.clearFlags(l, ChunkSchedule.STICKY);
                    continue;
                }
                s.sticky[kept++] = (short) l;
                if (takesPart(r)) {
                    addX(l, (byte) 0);
                }
            }
            s.stickyCount = kept;
        }
        if (s.wakeAll) {
            s.wakeAll = false;
            for (int l = 0; l < rows; l++) {
                int r = b + l;
                if (runOf(r) == RunStatus.RUNNING && !s.isListed(l) && takesPart(r)) {
                    addX(l, (byte) 0);
                }
            }
        }
    }

    /**
     * Requests recorded since the last tick, in the lists of the world chunks this chunk covers:
     * tick period changes (the wheel learns the switch step) and parameter wake-ups.
     */
    private void drainRequests() {
        final ChunkSchedule s = cs;
        final int wc = sys.world().chunkSize();
        for (int c = base / wc, last = (base + rows - 1) / wc; c <= last; c++) {
            StateTreeSystem.RequestList list = sys.requestList(c);
            if (list == null || list.size == 0) {
                continue;
            }
            for (int i = 0; i < list.size; i++) {
                int r = list.rows[i];
                int l = r - base;
                if (l < 0 || l >= rows) {
                    continue; // a row beyond the table's end since (it was removed)
                }
                boolean wakeUp = (s.flagsOf(l) & ChunkSchedule.WAKE) != 0;
                s.clearFlags(l, ChunkSchedule.REQUESTED | ChunkSchedule.WAKE);
                if (runOf(r) != RunStatus.RUNNING) {
                    continue;
                }
                if ((lodOf(r) & InstanceData.LOD_PENDING) != 0) {
                    s.schedule(l, wakeStep(r, step));
                }
                if (wakeUp && takesPart(r)) {
                    addX(l, (byte) 0);
                }
            }
            list.size = 0;
        }
    }

    /** Adds local row {@code l} to X (of its period) with {@code flag}; a row is in X at most once. */
    private void addX(int l, byte flag) {
        byte f = xFlags[l];
        if ((f & X_IN) == 0) {
            int p = cs.periodAgents == 0 ? 0 : lodOf(base + l) & 7;
            x[p][xCount[p]++] = base + l;
            f |= X_IN;
        }
        xFlags[l] = (byte) (f | flag);
    }

    /** Whether row {@code r} takes part in this step (docs/SEMANTICS.md section 12). */
    private boolean takesPart(int r) {
        return cs.periodAgents == 0 || ((step + ids[r]) & ((1 << (lodOf(r) & 7)) - 1)) == 0;
    }

    /**
     * Reads the chunk's gate columns front to back. The always-awake order is grouped by state but
     * not by row, so a gated onTick transition's loop reads gates in scattered order; when it covers
     * a good part of the chunk, streaming the columns in first (which the hardware prefetcher does at
     * full bandwidth) turns its misses into cache hits. Once per chunk and tick.
     */
    private void streamGates() {
        if (gatesStreamed == epoch) {
            return;
        }
        gatesStreamed = epoch;
        final short[] g = gate;
        final int[] due = gateDue;
        long acc = 0;
        for (int r = base, end = base + rows; r < end; r += 16) {
            acc += g[r] + due[r];
        }
        sink += acc;
    }

    private int gatesStreamed;

    /** Sink for {@link #touch}: keeps its loads alive. */
    private long sink;

    /**
     * Loads the execution-state columns and schedule entries of {@code rs[from..to)} in one tight loop
     * before the agents are processed one by one. The agents of a sparse set (due, evented, fired)
     * are scattered over the table, so each column access is a cache miss; in a loop of independent
     * loads the processor overlaps dozens of them, where the per-agent code (exit, enter, re-file)
     * would wait for them one after another.
     */
    private void touch(int[] rs, int from, int to) {
        final long[] ex = exec;
        final int[] id = ids;
        final long[] mt = cs.meta;
        final int b = base;
        long acc = 0;
        for (int i = from; i < to; i++) {
            int r = rs[i];
            acc += ex[r] + id[r] + mt[r - b];
        }
        // the due steps of the timers on each agent's path (known once its state is loaded)
        if (t.pathTimerTasks.length > 0) {
            for (int i = from; i < to; i++) {
                int r = rs[i];
                int leaf = ((int) ex[r] & 0xFFFF) - 1;
                if (leaf >= 0) {
                    for (int j = t.statePathTimersBegin[leaf], end = t.statePathTimersBegin[leaf + 1]; j < end; j++) {
                        int k = t.pathTimerTasks[j];
                        acc += d.ints[t.taskTimerDueSlot[k]][r] + (long) d.floats[t.taskTimerValueSlot[k]][r];
                    }
                }
            }
        }
        sink += acc;
    }

    /** Fills {@code into} with every running row of the chunk (the whole chunk when all run); returns the count. */
    private int allRunningRows(int[] into) {
        int n = 0;
        if (cs.running == rows) {
            for (int l = 0; l < rows; l++) {
                into[l] = base + l;
            }
            return rows;
        }
        for (int r = base, end = base + rows; r < end; r++) {
            if (runOf(r) == RunStatus.RUNNING) {
                into[n++] = r;
            }
        }
        return n;
    }

    /**
     * For chunks with agents of several periods: the always-awake agents taking part in this step by
     * (period, group) into {@link #lodOrder} with {@link #lodBegin}, and the running agents taking part
     * by period into {@link #evalRows} (when EVERY_TICK evaluators need them).
     */
    private void splitByPeriod() {
        final ChunkSchedule s = cs;
        final int[] ord = s.order;
        final int[] gb = s.groupBegin;
        int[][] lb = lodBegin;
        for (int p = 0; p < PERIODS; p++) {
            Arrays.fill(lb[p], 0);
        }
        // count (period, group), then prefix over periods-major order, then place
        for (int g = 0; g < groups; g++) {
            for (int i = gb[g]; i < gb[g + 1]; i++) {
                int r = ord[i];
                if (takesPart(r)) {
                    lb[lodOf(r) & 7][g]++;
                }
            }
        }
        int at = 0;
        for (int p = 0; p < PERIODS; p++) {
            for (int g = 0; g < groups; g++) {
                int c = lb[p][g];
                lb[p][g] = at;
                at += c;
            }
            lb[p][groups] = at;
        }
        for (int g = 0; g < groups; g++) {
            for (int i = gb[g]; i < gb[g + 1]; i++) {
                int r = ord[i];
                if (takesPart(r)) {
                    lodOrder[lb[lodOf(r) & 7][g]++] = r;
                }
            }
        }
        // placing advanced each start to the next group's start: shift back
        for (int p = PERIODS - 1; p >= 0; p--) {
            int[] b = lb[p];
            for (int g = groups - 1; g >= 1; g--) {
                b[g] = b[g - 1];
            }
            b[0] = p == 0 ? 0 : lb[p - 1][groups];
        }
        Arrays.fill(evalCount, 0);
        if (t.evaluatorsEveryTick.length > 0) {
            for (int r = base, end = base + rows; r < end; r++) {
                if (runOf(r) == RunStatus.RUNNING && takesPart(r)) {
                    int p = lodOf(r) & 7;
                    evalRows[p][evalCount[p]++] = r;
                }
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
        listLog = log;
        period = 1 << log;
        ctx.setTime(sys.seed(), tick, period * hostDt);
        outboxMode = TO_E;
        final int aFrom = aBegin[0];
        final int aTo = aBegin[groups];
        if (cs.periodAgents == 0 && cs.running == rows) {
            for (Evaluator e : t.evaluatorsEveryTick) {
                e.tickRange(ctx, base, base + rows); // every row of the chunk: a plain range
            }
        } else {
            for (Evaluator e : t.evaluatorsEveryTick) {
                e.tick(ctx, evals, 0, evalN);
            }
        }
        int[] xs = x[log];
        int sleepersAwake = 0;
        for (int i = 0, n = xCount[log]; i < n; i++) {
            if (!cs.isListed(xs[i] - base)) {
                cand[sleepersAwake++] = xs[i];
            }
        }
        for (Evaluator e : t.evaluatorsWhenAwake) {
            e.tick(ctx, aOrder, aFrom, aTo);
            e.tick(ctx, cand, 0, sleepersAwake);
        }
        awake += aTo - aFrom + sleepersAwake;
        final long t2 = phaseNanos != null ? System.nanoTime() : 0;
        if (aTo == aFrom && xCount[log] == 0) {
            if (phaseNanos != null) {
                phaseNanos[1] += t2 - t1;
            }
            return;
        }
        // X in state order, with the status each starts TickTasks with.
        int xn = sortByState(xs, xCount[log]);
        sliceX(xs, xn);
        int doneInA = 0;
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - base;
            byte st = lastOf(r);
            status[l] = st;
            if (st != RunStatus.RUNNING) {
                doneAt[l] = DONE_BEFORE;
                xFlags[l] |= X_DONE;
                if (cs.isListed(l)) {
                    doneInA++;
                }
            }
        }
        tickTasks(aOrder, aBegin, xn, doneInA);
        if (xCount[log] != xn) {
            xn = sortByState(xs, xCount[log]); // completed always-awake agents joined X
            sliceX(xs, xn);
        }
        afterTasks(xs, xn);
        final long t3 = phaseNanos != null ? System.nanoTime() : 0;
        fired = 0;
        detectTransitions(aOrder, aBegin, xs, xn);
        final long t4 = phaseNanos != null ? System.nanoTime() : 0;
        outboxMode = TO_P;
        touch(firedRows, 0, fired);
        for (int i = 0; i < fired; i++) {
            int r = firedRows[i];
            int l = r - base;
            oldLeaf[l] = stateOf(r) - 1;
            applyTransitions(r);
            carryPending(r);
            addX(l, X_FIRED);
        }
        // re-file every agent looked at: X (including the fired ones, just added)
        xs = x[log];
        for (int i = 0, n = xCount[log]; i < n; i++) {
            refile(xs[i]);
        }
        final long t5 = phaseNanos != null ? System.nanoTime() : 0;
        if (phaseNanos != null) {
            phaseNanos[1] += t2 - t1;
            phaseNanos[2] += t3 - t2;
            phaseNanos[3] += t4 - t3;
            phaseNanos[4] += t5 - t4;
        }
    }

    /** Sorts rows[0..n) by last active state (counting sort, or insertion sort when short); returns n. */
    private int sortByState(int[] rowsToSort, int n) {
        if (n <= 32) {
            for (int i = 1; i < n; i++) {
                int r = rowsToSort[i];
                int key = stateOf(r);
                int j = i - 1;
                while (j >= 0 && stateOf(rowsToSort[j]) > key) {
                    rowsToSort[j + 1] = rowsToSort[j];
                    j--;
                }
                rowsToSort[j + 1] = r;
            }
            return n;
        }
        final int[] h = histogram;
        Arrays.fill(h, 0);
        for (int i = 0; i < n; i++) {
            h[stateOf(rowsToSort[i])]++; // state + 1 in 1..stateCount: counts land one slot up
        }
        for (int s = 1; s < h.length; s++) {
            h[s] += h[s - 1];
        }
        int[] sorted = cand;
        for (int i = 0; i < n; i++) {
            int r = rowsToSort[i];
            sorted[h[stateOf(r) - 1]++] = r;
        }
        System.arraycopy(sorted, 0, rowsToSort, 0, n);
        return n;
    }

    /**
     * Fills {@link #xBegin}: for every state s, the first index in the state-sorted {@code xs[0..n)}
     * whose last active state is >= s, so that the X agents whose path contains s are
     * {@code xs[xBegin[s] .. xBegin[stateSubtreeEnd[s]])}. One sweep over states and X together.
     */
    private void sliceX(int[] xs, int n) {
        final int[] xb = xBegin;
        int i = 0;
        for (int s = 0; s <= t.stateCount; s++) {
            while (i < n && stateOf(xs[i]) - 1 < s) {
                i++;
            }
            xb[s] = i;
        }
    }

    /**
     * TickTasks: states in ascending id order; per task, onTimer for the due X agents of the state's
     * subtree whose timer is due now, then the tick over the state's slice of A. An agent leaves the
     * batches once something completed it.
     */
    private void tickTasks(int[] aOrder, int[] aBegin, int xn, int doneInAStart) {
        final int[] xs = x[listLog];
        final byte[] st = status;
        final int b = base;
        final short[] end = t.stateSubtreeEnd;
        final int[] groupsBegin = t.stateAwakeGroupsBegin;
        int doneInA = doneInAStart;
        for (int s = 0; s < t.stateCount; s++) {
            int numTasks = t.stateTasksNum[s];
            if (numTasks == 0) {
                continue;
            }
            int aLo = aBegin[groupsBegin[s]];
            int aHi = aBegin[groupsBegin[end[s]]];
            int xLo = xBegin[s];
            int xHi = xBegin[end[s]];
            if (aLo == aHi && xLo == xHi) {
                continue;
            }
            for (int k = t.stateTasksBegin[s], kEnd = k + numTasks; k < kEnd; k++) {
                Task task = t.tasks[k];
                if (t.taskTimer[k] != TimerKind.NONE && xLo < xHi) {
                    final int[] due = d.ints[t.taskTimerDueSlot[k]];
                    int m = 0;
                    for (int i = xLo; i < xHi; i++) {
                        int r = xs[i];
                        int l = r - b;
                        if ((xFlags[l] & X_DUE) != 0 && st[l] == RunStatus.RUNNING && due[r] == step) {
                            due[r] = 0; // ran out: stopped (onTimer may start it again)
                            cand[m++] = r;
                        }
                    }
                    if (m > 0) {
                        ctx.resetCompletions();
                        ctx.setTask(k, t.taskTimer[k]);
                        task.onTimer(ctx, cand, 0, m);
                        ctx.setTask(-1, TimerKind.NONE);
                        if (ctx.completions() > 0) {
                            doneInA += recordCompletions(cand, 0, m, k);
                        }
                    }
                }
                if (task.ticks() && aLo < aHi) {
                    ctx.resetCompletions();
                    if (doneInA == 0) {
                        task.tick(ctx, aOrder, aLo, aHi);
                        if (ctx.completions() > 0) {
                            doneInA += recordCompletions(aOrder, aLo, aHi, k);
                        }
                    } else {
                        int m = 0;
                        for (int i = aLo; i < aHi; i++) {
                            int r = aOrder[i];
                            if (st[r - b] == RunStatus.RUNNING) {
                                cand[m++] = r;
                            }
                        }
                        if (m > 0) {
                            task.tick(ctx, cand, 0, m);
                            if (ctx.completions() > 0) {
                                doneInA += recordCompletions(cand, 0, m, k);
                            }
                        }
                    }
                }
            }
        }
    }

    /** Rows of {@code rs[from..to)} that a call of task {@code k} completed: noted, and added to X. Returns how many are in A. */
    private int recordCompletions(int[] rs, int from, int to, int k) {
        int inA = 0;
        for (int i = from; i < to; i++) {
            int r = rs[i];
            int l = r - base;
            if (status[l] != RunStatus.RUNNING && doneAt[l] == NOT_DONE) {
                doneAt[l] = k;
                addX(l, X_DONE);
                if (cs.isListed(l)) {
                    inA++;
                }
            }
        }
        return inA;
    }

    /**
     * After TickTasks: the timers of completed agents that TickTasks did not reach pause (due one
     * step later), and the statuses are written back.
     */
    private void afterTasks(int[] xs, int xn) {
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - base;
            byte st = status[l];
            if (st != RunStatus.RUNNING) {
                int leaf = stateOf(r) - 1;
                int from = doneAt[l];
                for (int j = t.statePathTimersBegin[leaf], e = t.statePathTimersBegin[leaf + 1]; j < e; j++) {
                    int k = t.pathTimerTasks[j];
                    if (k > from) {
                        int[] due = d.ints[t.taskTimerDueSlot[k]];
                        int dv = due[r];
                        if (dv != 0 && dv != NEVER) {
                            due[r] = dv + period;
                        }
                    }
                }
            }
            setLast(r, st);
        }
    }

    /**
     * Round one of TriggerTransitions for the pass: states from the highest id down, so every
     * agent's states are visited leaf to root; per transition, onTick ones test the state's slice of
     * A in place (conditions are pure, so testing decided agents too changes nothing) and the others
     * the state's slice of X whose trigger matches. The first transition that passes decides. Then
     * the completed X agents that found no transition restart from the root.
     */
    private void detectTransitions(int[] aOrder, int[] aBegin, int[] xs, int xn) {
        final int b = base;
        final int ep = epoch;
        final int[] stamp = decStamp;
        final short[] end = t.stateSubtreeEnd;
        final int[] groupsBegin = t.stateAwakeGroupsBegin;
        for (int s = t.stateCount - 1; s >= 0; s--) {
            int num = t.stateTransitionsNum[s];
            if (num == 0) {
                continue;
            }
            int aLo = aBegin[groupsBegin[s]];
            int aHi = aBegin[groupsBegin[end[s]]];
            int xLo = xBegin[s];
            int xHi = xBegin[end[s]];
            if (aLo == aHi && xLo == xHi) {
                continue;
            }
            for (int tr = t.stateTransitionsBegin[s], trEnd = tr + num; tr < trEnd; tr++) {
                boolean gatedTr = t.isGated(tr);
                if (t.transitionTrigger[tr] == TRIGGER_TICK) {
                    if (aLo == aHi) {
                        continue;
                    }
                    testConditions(t.transitionConditionsBegin[tr], t.transitionConditionsNum[tr], aOrder, aLo, aHi, pass);
                    final boolean[] ok = pass;
                    if (!gatedTr) {
                        for (int i = aLo; i < aHi; i++) {
                            if (ok[i]) {
                                int r = aOrder[i];
                                if (stamp[r - b] != ep) {
                                    decide(r, tr, true, false);
                                }
                            }
                        }
                        continue;
                    }
                    final short mine = (short) (tr + 1);
                    final short[] gt = gate;
                    final int[] gdue = gateDue;
                    final int now = step;
                    if (aHi - aLo > rows >> 3) {
                        streamGates();
                    }
                    // Branch-free first pass: the positions whose agent holds this gate or passes
                    // (unpredictable, so a branch per agent would stall the gathers behind it).
                    final int[] c = cand;
                    int m = 0;
                    for (int i = aLo; i < aHi; i++) {
                        c[m] = i;
                        m += (gt[aOrder[i]] == mine | ok[i]) ? 1 : 0;
                    }
                    for (int j = 0; j < m; j++) {
                        int i = c[j];
                        int r = aOrder[i];
                        boolean held = gt[r] == mine;
                        if (stamp[r - b] == ep) {
                            continue;
                        }
                        if (held) {
                            if (!ok[i]) {
                                clearGate(r); // cancelled: the condition no longer holds
                                continue;
                            }
                            int due = gdue[r];
                            if (due != 0 && now < due) {
                                stamp[r - b] = ep; // waiting at the closed gate (Q-A5: blocks the scan)
                                continue;
                            }
                        }
                        decide(r, tr, true, true);
                    }
                    continue;
                }
                int m = 0;
                for (int i = xLo; i < xHi; i++) {
                    int r = xs[i];
                    if (stamp[r - b] == ep) {
                        continue;
                    }
                    if (shouldCheck(tr, r)) {
                        cand[m++] = r;
                    } else if (gatedTr) {
                        cancelGate(r, tr); // the pending gate's trigger no longer matches
                    }
                }
                if (m == 0) {
                    continue;
                }
                testConditions(t.transitionConditionsBegin[tr], t.transitionConditionsNum[tr], cand, 0, m, pass);
                for (int j = 0; j < m; j++) {
                    decide(cand[j], tr, pass[j], gatedTr);
                }
            }
        }
        // Restart from root when a completed state found no transition (A8.5).
        for (int i = 0; i < xn; i++) {
            int r = xs[i];
            int l = r - b;
            if (status[l] != RunStatus.RUNNING && stamp[l] != ep) {
                stamp[l] = ep;
                firedTransition[l] = RESTART;
                nextLeaf[l] = selectInternal(r, 0);
                firedRows[fired++] = r;
            }
        }
    }

    /**
     * Transition {@code tr}'s trigger matched for the undecided row {@code r} and its conditions
     * gave {@code passed}: cancel its gate on failure, otherwise record the decision.
     */
    private void decide(int r, int tr, boolean passed, boolean gatedTr) {
        if (!passed) {
            if (gatedTr) {
                cancelGate(r, tr);
            }
            return;
        }
        int leaf = onPassed(r, tr);
        if (leaf == CONTINUE) {
            return;
        }
        int l = r - base;
        decStamp[l] = epoch;
        if (leaf != STOP) {
            firedTransition[l] = tr;
            nextLeaf[l] = leaf;
            firedRows[fired++] = r;
        }
    }

    private static final int CONTINUE = -3, STOP = -4, TERMINAL = -5;

    /**
     * Transition {@code tr} passed its trigger and conditions for row {@code r}: handle the gate and
     * the type. Returns the selected leaf, {@link #TERMINAL} for @succeeded/@failed, {@link #STOP}
     * when the scan must stop without a transition (gate waiting, @none), or {@link #CONTINUE} when
     * the target could not be selected.
     */
    private int onPassed(int r, int tr) {
        if (t.isGated(tr)) {
            if (gate[r] != tr + 1) {
                gate[r] = (short) (tr + 1);
                exec[r] |= GATE_BIT;
                float g = t.gateTime(tr, sys.seed(), ids[r], tick);
                gateValue[r] = g;
                gateDue[r] = g > 0f ? dueStep(lastPart(r, step), g, period) : 0;
                if (t.transitionTrigger[tr] != TRIGGER_TICK) {
                    cs.addSticky(r - base);
                }
            }
            int due = gateDue[r];
            if (due != 0 && step < due) {
                return STOP; // the gate is still closed (Q-A5: blocks the rest of the scan)
            }
        }
        switch (t.transitionType[tr]) {
            case GOTO: {
                int leaf = selectInternal(r, t.transitionTarget[tr]);
                return leaf >= 0 ? leaf : CONTINUE;
            }
            case NOT_SET:
                return STOP;
            default:
                return TERMINAL;
        }
    }

    private boolean shouldCheck(int tr, int r) {
        byte trig = t.transitionTrigger[tr];
        if (trig == TRIGGER_TICK) {
            return true;
        }
        if (trig == TRIGGER_EVENT) {
            return hasEvent(r - base, t.transitionEvent[tr]);
        }
        byte l = lastOf(r);
        byte completion = l == RunStatus.SUCCEEDED ? TRIGGER_SUCCEEDED : l == RunStatus.FAILED ? TRIGGER_FAILED : 0;
        return (trig & completion) != 0;
    }

    private void cancelGate(int r, int tr) {
        if (gate[r] == tr + 1) {
            clearGate(r);
        }
    }

    private void clearGate(int r) {
        gate[r] = 0;
        exec[r] &= ~GATE_BIT;
        gateValue[r] = 0f;
        gateDue[r] = 0;
    }

    /**
     * ANDs the conditions {@code [begin, begin+num)} over {@code rows[from..to)} into
     * {@code result[from..to)}.
     */
    private void testConditions(int begin, int num, int[] rowsToTest, int from, int to, boolean[] result) {
        if (num == 0) {
            Arrays.fill(result, from, to, true);
            return;
        }
        Condition[] conds = t.conditions;
        conds[begin].test(ctx, rowsToTest, from, to, result);
        for (int c = begin + 1; c < begin + num; c++) {
            conds[c].test(ctx, rowsToTest, from, to, tmp);
            for (int i = from; i < to; i++) {
                result[i] &= tmp[i];
            }
        }
    }

    private boolean enterConditionsPass(int r, int s) {
        int num = t.stateEnterConditionsNum[s];
        if (num == 0) {
            return true;
        }
        one[0] = r;
        testConditions(t.stateEnterConditionsBegin[s], num, one, 0, 1, oneOut);
        return oneOut[0];
    }

    /**
     * SelectState(target) (A5, A6). The kept prefix and the in-between ancestors are not tested
     * (Q-A6), and the resulting path is the parent chain of the selected state, so the result only
     * depends on SelectStateInternal(target). Returns the selected last state, or -1.
     */
    int selectInternal(int r, int s) {
        if (!enterConditionsPass(r, s)) {
            return -1;
        }
        int end = t.stateSubtreeEnd[s];
        if (t.stateSelection[s] == TRY_ENTER || end == s + 1) {
            return s;
        }
        for (int c = s + 1; c < end; c = t.stateSubtreeEnd[c]) {
            int leaf = selectInternal(r, c);
            if (leaf >= 0) {
                return leaf;
            }
        }
        return -1;
    }

    // =============================================================================================
    // Re-filing agents: group in the order, wake-up in the wheel, stickiness, period switch
    // =============================================================================================

    /** Re-files row {@code r}, looked at in this step, in its chunk's schedule. */
    private void refile(int r) {
        final ChunkSchedule s = cs;
        final int l = r - base;
        final boolean firedNow = (xFlags[l] & X_FIRED) != 0;
        if (runOf(r) != RunStatus.RUNNING) {
            if (s.isListed(l)) {
                s.remove(l, t.stateAwakeGroup[oldLeaf[l]]);
            }
            s.unschedule(l);
            s.running--;
            if ((lodOf(r) & 7) != 0) {
                s.periodAgents--; // counted among the running agents by the period they ran with
            }
            applyPendingPeriod(r);
            return;
        }
        if (firedNow) {
            int gNew = t.stateAwakeGroup[stateOf(r) - 1];
            if (s.isListed(l)) {
                int gOld = t.stateAwakeGroup[oldLeaf[l]];
                if (gNew >= 0) {
                    s.move(l, gOld, gNew);
                } else {
                    s.remove(l, gOld);
                }
            } else if (gNew >= 0) {
                s.insert(l, gNew);
            }
        }
        byte lv = lodOf(r);
        if ((lv & InstanceData.LOD_PENDING) != 0) {
            int p = 1 << (lv & 7);
            int q = 1 << ((lv >> 4) & 7);
            if (((step + ids[r]) & (Math.max(p, q) - 1)) == 0) {
                switchPeriod(r, p, q);
            }
        }
        s.schedule(l, wakeStep(r, step + 1));
        if (sticky(r)) {
            s.addSticky(l);
        }
    }

    /**
     * Whether running row {@code r} must be looked at in every step it takes part in, beyond the
     * always-awake order: its state completed (the scan repeats every tick), or a gate is pending on
     * an event or completion transition (re-checked, maybe cancelled, every tick). A gate on an onTick
     * transition needs nothing more: only always-awake agents have one, and the order covers them.
     */
    private boolean sticky(int r) {
        return lastOf(r) != RunStatus.RUNNING
                || ((exec[r] & GATE_BIT) != 0 && t.transitionTrigger[gate[r] - 1] != TRIGGER_TICK);
    }

    /**
     * The step row {@code r} must next be looked at for its own sake: its earliest running timer on
     * the active path, or the step a requested period takes effect (>= {@code from}); 0 when none.
     */
    private int wakeStep(int r, int from) {
        int leaf = stateOf(r) - 1;
        int w = NEVER;
        if (leaf >= 0) {
            for (int j = t.statePathTimersBegin[leaf], e = t.statePathTimersBegin[leaf + 1]; j < e; j++) {
                int due = d.ints[t.taskTimerDueSlot[t.pathTimerTasks[j]]][r];
                if (due != 0 && due < w) {
                    w = due;
                }
            }
        }
        byte lv = lodOf(r);
        if ((lv & InstanceData.LOD_PENDING) != 0) {
            int m = Math.max(1 << (lv & 7), 1 << ((lv >> 4) & 7));
            int j = from + ((m - ((from + ids[r]) & (m - 1))) & (m - 1));
            w = Math.min(w, j);
        }
        return w == NEVER ? 0 : w;
    }

    /** A tree that no longer runs has no timers to keep exact: a requested period applies at once. */
    private void applyPendingPeriod(int r) {
        byte lv = lodOf(r);
        if ((lv & InstanceData.LOD_PENDING) != 0) {
            setLod(r, (byte) ((lv >> 4) & 7));
        }
    }

    /** Applies row {@code r}'s pending period change at this step: rebases its timers and gate from p to q. */
    private void switchPeriod(int r, int p, int q) {
        rebaseRow(r, step, p, p * sys.timerDt(), q, q * sys.timerDt());
        setLod(r, (byte) Integer.numberOfTrailingZeros(q));
        if (p == 1) {
            cs.periodAgents++;
        } else if (q == 1) {
            cs.periodAgents--;
        }
    }

    /**
     * Re-derives the due steps of row {@code r}'s running timers and gate: they counted with period
     * {@code p} and agent dt {@code dOld} up to and including step {@code j} (a step the agent took
     * part in), and count with {@code q} and {@code dNew} from there on.
     */
    void rebaseRow(int r, int j, int p, float dOld, int q, float dNew) {
        int leaf = stateOf(r) - 1;
        if (leaf < 0) {
            return;
        }
        for (int i = t.statePathTimersBegin[leaf], e = t.statePathTimersBegin[leaf + 1]; i < e; i++) {
            int k = t.pathTimerTasks[i];
            int[] dueSlot = d.ints[t.taskTimerDueSlot[k]];
            int due = dueSlot[r];
            if (due == 0) {
                continue;
            }
            if (t.taskTimer[k] == TimerKind.TICKS) {
                dueSlot[r] = due == NEVER ? NEVER : clampDue(j + (long) ((due - j) / p) * q);
            } else {
                float[] valueSlot = d.floats[t.taskTimerValueSlot[k]];
                float v = counted(valueSlot[r], due, j, p, dOld);
                valueSlot[r] = v;
                dueSlot[r] = dueStep(j, v, q, dNew);
            }
        }
        int gd = gateDue[r];
        if (gate[r] != 0 && gd != 0) {
            float v = counted(gateValue[r], gd, j, p, dOld);
            gateValue[r] = v;
            gateDue[r] = dueStep(j, v, q, dNew);
        }
    }

    /** The value of a countdown due at {@code due} (from {@code v}, period p, dt d) after step {@code j}. */
    private static float counted(float v, int due, int j, int p, float d) {
        if (due == NEVER) {
            return v; // never changes under d (NaN, infinite, or steps below its precision)
        }
        long ref = due - Countdown.steps(v, d) * p;
        return Countdown.after(v, d, (j - ref) / p);
    }

    /** The step at which a countdown from {@code v} started after step {@code ref} runs out with period {@code p}. */
    private int dueStep(int ref, float v, int p) {
        return dueStep(ref, v, p, p * sys.timerDt());
    }

    private static int dueStep(int ref, float v, int p, float agentDt) {
        long n = Countdown.steps(v, agentDt);
        return n == Countdown.NEVER ? NEVER : clampDue(ref + n * p);
    }

    private static int clampDue(long due) {
        return due >= NEVER ? NEVER : (int) due;
    }

    /** The last step at or before {@code s} that row {@code r} takes part in under its period. */
    private int lastPart(int r, int s) {
        return s - ((s + ids[r]) & ((1 << (lodOf(r) & 7)) - 1));
    }

    // =============================================================================================
    // Timers (TimerService): due steps
    // =============================================================================================

    @Override
    public void startTimer(int task, int row, float seconds) {
        int p = 1 << (lodOf(row) & 7);
        d.floats[t.taskTimerValueSlot[task]][row] = seconds;
        d.ints[t.taskTimerDueSlot[task]][row] = dueStep(lastPart(row, step), seconds, p);
    }

    @Override
    public void startTickTimer(int task, int row, int ticks) {
        int p = 1 << (lodOf(row) & 7);
        d.ints[t.taskTimerDueSlot[task]][row] = clampDue(lastPart(row, step) + (long) ticks * p);
    }

    // =============================================================================================
    // Rebuilding a chunk's schedule from the columns
    // =============================================================================================

    /** Rebuilds {@link #cs} for the bound chunk; the wheel stands at {@code nowStep}. */
    private void rebuild(int nowStep) {
        final ChunkSchedule s = cs;
        s.clear(base, rows, nowStep);
        for (int l = 0; l < rows; l++) {
            int r = base + l;
            groupOf[l] = -1;
            if (runOf(r) == RunStatus.RUNNING) {
                s.running++;
                if ((lodOf(r) & 7) != 0) {
                    s.periodAgents++;
                }
                int leaf = stateOf(r) - 1;
                if (leaf >= 0) {
                    groupOf[l] = t.stateAwakeGroup[leaf];
                }
            } else {
                applyPendingPeriod(r);
            }
        }
        s.buildOrder(groupOf);
        for (int l = 0; l < rows; l++) {
            int r = base + l;
            if (runOf(r) == RunStatus.RUNNING) {
                s.schedule(l, wakeStep(r, nowStep + 1));
                if (sticky(r)) {
                    s.addSticky(l);
                }
            }
        }
        s.dirty = false;
    }

    /**
     * The dt the timers were derived from changed from {@code oldDt} to {@code newDt} before step
     * {@code k}: re-derive every running timer and gate of the chunk's rows {@code [from, to)}.
     */
    void rebaseChunk(int from, int to, int k, float oldDt, float newDt) {
        exec = d.exec;
        gate = d.gate;
        gateValue = d.gateValue;
        gateDue = d.gateDue;
        ids = d.ids;
        for (int r = from; r < to; r++) {
            if (runOf(r) == RunStatus.RUNNING) {
                int p = 1 << (lodOf(r) & 7);
                rebaseRow(r, lastPart(r, k - 1), p, p * oldDt, p, p * newDt);
            }
        }
    }

    // =============================================================================================
    // Applying transitions (per agent, sparse)
    // =============================================================================================

    /** Applies the transition detected for row {@code r} and up to four more rounds (A4 step 9). */
    private void applyTransitions(int r) {
        final int l = r - base;
        int tr = firedTransition[l];
        int leaf = nextLeaf[l];
        for (int round = 1; ; round++) {
            if (!fire(r, tr, leaf)) {
                return; // tree finished
            }
            if (lastOf(r) == RunStatus.RUNNING || round == 5) {
                break;
            }
            movePendingToE(l);
            long found = triggerScalar(r);
            if (found == NONE) {
                break;
            }
            tr = (int) (found >> 32);
            leaf = (int) found;
        }
        if (stateOf(r) == 0) {
            failTree(r);
        }
    }

    private static final long NONE = Long.MIN_VALUE;

    /**
     * Fires one transition: consume its event, trace, ExitState, then EnterState or the terminal
     * outcome. Returns false when the tree finished.
     */
    private boolean fire(int r, int tr, int leaf) {
        final int cur = stateOf(r) - 1;
        if (tr >= 0 && t.transitionTrigger[tr] == TRIGGER_EVENT) {
            consumeEvent(r - base, t.transitionEvent[tr]);
        }
        if (traced(r)) {
            trace(r, TraceFormat.transition(tick, t, cur, tr));
        }
        boolean terminal = tr >= 0 && (t.transitionType[tr] == TO_SUCCEEDED || t.transitionType[tr] == TO_FAILED);
        if (terminal || (tr == RESTART && leaf < 0)) {
            // Terminal transition, or a restart that found no selectable leaf (Q-A9): exit everything.
            exitState(r, cur, -1, -1, true);
            setState(r, 0);
            setRun(r, terminal && t.transitionType[tr] == TO_SUCCEEDED ? RunStatus.SUCCEEDED : RunStatus.FAILED);
            if (traced(r)) {
                trace(r, TraceFormat.tree(tick, RunStatus.name(runOf(r))));
            }
            return false;
        }
        int target = tr >= 0 ? t.transitionTarget[tr] : 0;
        exitState(r, cur, target, leaf, false);
        setLast(r, enterState(r, cur, target, leaf));
        return true;
    }

    /** TriggerTransitions for one agent (rounds two to five). Returns (transition << 32 | leaf) or NONE. */
    private long triggerScalar(int r) {
        int cur = stateOf(r) - 1;
        for (int s = cur; s >= 0; s = t.stateParent[s]) {
            for (int tr = t.stateTransitionsBegin[s], end = tr + t.stateTransitionsNum[s]; tr < end; tr++) {
                boolean ok = shouldCheck(tr, r);
                if (ok) {
                    one[0] = r;
                    testConditions(t.transitionConditionsBegin[tr], t.transitionConditionsNum[tr], one, 0, 1, oneOut);
                    ok = oneOut[0];
                }
                if (!ok) {
                    cancelGate(r, tr);
                    continue;
                }
                int leaf = onPassed(r, tr);
                if (leaf == STOP) {
                    return NONE;
                }
                if (leaf != CONTINUE) {
                    return ((long) tr << 32) | (leaf & 0xFFFFFFFFL);
                }
            }
        }
        if (lastOf(r) != RunStatus.RUNNING) {
            return ((long) RESTART << 32) | (selectInternal(r, 0) & 0xFFFFFFFFL);
        }
        return NONE;
    }

    /** Fills {@link #chain} with the path ending at {@code leaf}, root first; returns its length. */
    private int chainOf(int leaf) {
        int len = t.stateDepth[leaf] + 1;
        for (int s = leaf, i = len - 1; i >= 0; s = t.stateParent[s], i--) {
            chain[i] = s;
        }
        return len;
    }

    /** EnterState (A10) from the path ending at {@code cur} (-1: empty) to the one ending at {@code leaf}. */
    byte enterState(int r, int cur, int target, int leaf) {
        long e = exec[r] + (1L << InstanceData.CHANGES_SHIFT);
        exec[r] = e;
        if (e >>> InstanceData.CHANGES_SHIFT == 0) {
            changes[r]++; // the low 16 bits wrapped
        }
        setFailed(r, 0);
        byte result = RunStatus.RUNNING;
        boolean succeeded = false;
        boolean onTarget = false;
        int len = chainOf(leaf);
        for (int i = 0; i < len; i++) {
            int s = chain[i];
            setState(r, (short) (s + 1));
            boolean wasActive = cur >= 0 && t.stateDepth[cur] >= i && t.isAncestorOrSelf(s, cur);
            onTarget |= s == target;
            byte change = wasActive ? ChangeType.SUSTAINED : ChangeType.CHANGED;
            if (t.stateType[s] == CompiledStateTree.LINKED) {
                copyLinkedParameters(r, s);
            }
            if (!wasActive || onTarget) {
                if (traced(r)) {
                    trace(r, TraceFormat.enter(tick, t, s, change));
                }
                ctx.setChange(change, s, target);
                for (int k = t.stateTasksBegin[s], end = k + t.stateTasksNum[s]; k < end; k++) {
                    if (change == ChangeType.CHANGED || t.taskReselect[k]) {
                        TimerKind timer = t.taskTimer[k];
                        if (timer != TimerKind.NONE) {
                            d.ints[t.taskTimerDueSlot[k]][r] = 0; // entering stops the task's timer
                        }
                        ctx.setTask(k, timer);
                        byte st = t.tasks[k].enterState(ctx, r);
                        ctx.setTask(-1, TimerKind.NONE);
                        if (traced(r)) {
                            trace(r, TraceFormat.taskEnter(tick, t, k, st == RunStatus.FAILED));
                        }
                        if (st == RunStatus.FAILED) {
                            setFailed(r, (short) (k + 1));
                            result = RunStatus.FAILED;
                            break;
                        }
                        succeeded |= st == RunStatus.SUCCEEDED;
                    }
                }
                if (result == RunStatus.FAILED) {
                    break;
                }
            }
        }
        return result == RunStatus.RUNNING && succeeded ? RunStatus.SUCCEEDED : result;
    }

    private void copyLinkedParameters(int r, int s) {
        for (int i = t.stateLinkedParamsBegin[s], end = i + t.stateLinkedParamsNum[s]; i < end; i++) {
            ctx.write(t.linkedParamType[i], t.linkedParamSlot[i], r, t.linkedParamValue[i].getDouble(ctx, r));
        }
    }

    /**
     * ExitState (A11) of the path ending at {@code cur}; {@code all} exits every state as changed
     * (terminal transitions, failed restarts, Stop).
     */
    void exitState(int r, int cur, int target, int leaf, boolean all) {
        if (cur < 0) {
            return;
        }
        if ((exec[r] & GATE_BIT) != 0) {
            clearGate(r);
        }
        int nextLen = all || leaf < 0 ? 0 : chainOf(leaf);
        System.arraycopy(chain, 0, nextPath, 0, nextLen); // the next path, root first
        int len = chainOf(cur);
        int count = 0;
        boolean onTarget = all;
        for (int i = 0; i < len; i++) {
            int s = chain[i];
            int next = i < nextLen ? nextPath[i] : -1;
            boolean remains = next == s;
            onTarget |= next == target && next >= 0;
            if (!remains || onTarget) {
                exited[count] = s;
                exitedChange[count] = remains ? ChangeType.SUSTAINED : ChangeType.CHANGED;
                count++;
            }
        }
        int failedTask = failedOf(r) - 1;
        for (int j = count - 1; j >= 0; j--) {
            int s = exited[j];
            byte change = exitedChange[j];
            if (traced(r)) {
                trace(r, TraceFormat.exit(tick, t, s, change));
            }
            ctx.setChange(change, s, target);
            for (int k = t.stateTasksBegin[s] + t.stateTasksNum[s] - 1; k >= t.stateTasksBegin[s]; k--) {
                if ((failedTask < 0 || k <= failedTask) && (change == ChangeType.CHANGED || t.taskReselect[k])) {
                    t.tasks[k].exitState(ctx, r);
                    if (traced(r)) {
                        trace(r, TraceFormat.taskExit(tick, t, k));
                    }
                }
            }
        }
    }

    private void failTree(int r) {
        setRun(r, RunStatus.FAILED);
        if (traced(r)) {
            trace(r, TraceFormat.tree(tick, "failed"));
        }
    }

    // =============================================================================================
    // Start and Stop of a range of rows (per chunk)
    // =============================================================================================

    /**
     * Start (docs/SEMANTICS.md section 2) for rows {@code rows[0..n)} of the chunk: stops running
     * trees, starts evaluators and ticks them with dt 0, then selects and enters per agent. The chunk
     * is rebuilt before its next tick.
     */
    private void startRows(int[] rs, int n) {
        outboxMode = TO_P;
        ctx.setTime(sys.seed(), tick, 0f);
        for (int i = 0; i < n; i++) {
            int r = rs[i];
            if (runOf(r) == RunStatus.RUNNING) {
                stopRow(r);
            }
            if (traced(r)) {
                trace(r, TraceFormat.start(tick));
            }
        }
        for (Evaluator e : t.evaluators) {
            e.treeStart(ctx, rs, 0, n);
        }
        for (Evaluator e : t.evaluators) {
            e.tick(ctx, rs, 0, n);
        }
        for (int i = 0; i < n; i++) {
            int r = rs[i];
            setRun(r, RunStatus.RUNNING);
            setState(r, 0);
            setLast(r, RunStatus.UNSET);
            int leaf = selectInternal(r, 0);
            if (leaf >= 0) {
                setLast(r, enterState(r, -1, 0, leaf));
            }
            if (stateOf(r) == 0) {
                failTree(r);
            }
            carryPending(r);
        }
        cs.dirty = true;
    }

    /** Start for every row of a chunk whose tree is {@code UNSET} (never started) or, if {@code all}, every row. */
    void startChunk(ChunkSchedule schedule, int chunkBase, int chunkEnd, boolean all, ChunkOutput output,
                    long tickNumber, int stepNumber) {
        begin(schedule, chunkBase, chunkEnd, output, tickNumber, stepNumber);
        int n = 0;
        for (int r = chunkBase; r < chunkEnd; r++) {
            if (all || runOf(r) == RunStatus.UNSET) {
                cand[n++] = r;
            }
        }
        if (n > 0) {
            startRows(cand, n);
        }
    }

    /** Stop for the running rows {@code [from, to)} of a chunk. */
    void stopRange(ChunkSchedule schedule, int chunkBase, int chunkEnd, int from, int to, ChunkOutput output,
                   long tickNumber, int stepNumber) {
        begin(schedule, chunkBase, chunkEnd, output, tickNumber, stepNumber);
        outboxMode = TO_P;
        ctx.setTime(sys.seed(), tick, 0f);
        for (int r = from; r < to; r++) {
            if (runOf(r) == RunStatus.RUNNING) {
                stopRow(r);
            }
        }
        cs.dirty = true;
    }

    /** Stop (section 7) of one running row; its pending events are dropped with the tree. */
    private void stopRow(int r) {
        exitState(r, stateOf(r) - 1, -1, -1, true);
        one[0] = r;
        for (Evaluator e : t.evaluators) {
            e.treeStop(ctx, one, 0, 1);
        }
        setRun(r, RunStatus.STOPPED);
        setState(r, 0);
        applyPendingPeriod(r);
        pHead[r - base] = -1;
        if (traced(r)) {
            trace(r, TraceFormat.tree(tick, "stopped"));
        }
    }

    // =============================================================================================
    // Events
    // =============================================================================================

    private void append(int local, int tag, float payload, boolean has, boolean toE) {
        if (evSize == evTag.length) {
            int m = evSize * 2;
            evTag = Arrays.copyOf(evTag, m);
            evPayload = Arrays.copyOf(evPayload, m);
            evHas = Arrays.copyOf(evHas, m);
            evDead = Arrays.copyOf(evDead, m);
            evNext = Arrays.copyOf(evNext, m);
        }
        int e = evSize++;
        evTag[e] = tag;
        evPayload[e] = payload;
        evHas[e] = has;
        evDead[e] = false;
        evNext[e] = -1;
        int[] head = toE ? eHead : pHead;
        int[] tail = toE ? eTail : pTail;
        if (head[local] < 0) {
            head[local] = e;
        } else {
            evNext[tail[local]] = e;
        }
        tail[local] = e;
    }

    private boolean hasEvent(int local, int tag) {
        for (int e = eHead[local]; e >= 0; e = evNext[e]) {
            if (evTag[e] == tag && !evDead[e]) {
                return true;
            }
        }
        return false;
    }

    private void consumeEvent(int local, int tag) {
        for (int e = eHead[local]; e >= 0; e = evNext[e]) {
            if (evTag[e] == tag && !evDead[e]) {
                evDead[e] = true;
                return;
            }
        }
    }

    private void movePendingToE(int local) {
        int p = pHead[local];
        if (p < 0) {
            return;
        }
        if (eHead[local] < 0) {
            eHead[local] = p;
        } else {
            evNext[eTail[local]] = p;
        }
        eTail[local] = pTail[local];
        pHead[local] = -1;
    }

    /** Events sent during the last ExitState/EnterState wait for the agent's next tick. */
    private void carryPending(int r) {
        int local = r - base;
        for (int e = pHead[local]; e >= 0; e = evNext[e]) {
            out.carried.add(ids[r], evTag[e], evPayload[e], evHas[e]);
        }
        pHead[local] = -1;
    }

    @Override
    public void sendToSelf(int row, int tag, float payload, boolean hasPayload) {
        int l = row - base;
        boolean toE = outboxMode == TO_E;
        append(l, tag, payload, hasPayload, toE);
        if (toE) {
            addX(l, X_EVENT); // the event is seen by this tick's transitions: the agent is awake
        }
    }

    @Override
    public void sendToAgent(int agentId, int tag, float payload, boolean hasPayload) {
        out.toOthers.add(agentId, tag, payload, hasPayload);
    }

    /** Whether lines of row {@code r} are wanted (tracing on, and no filter or this agent). */
    private boolean traced(int r) {
        return tracing && (traceAgent < 0 || ids[r] == traceAgent);
    }

    private void trace(int r, String line) {
        out.traceAgents.add(ids[r]);
        out.traceLines.add(line);
    }
}
