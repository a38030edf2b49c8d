package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.LinkedParameters;
import dev.crowdtree.statetree.internal.StateParameterValues;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;

import java.util.Arrays;

/**
 * The state one worker's phases share while they run a chunk: the chunk being processed (its rows,
 * step, tick, bound columns), the chunk-sized scratch indexed by local row, the set X of extra agents
 * of the step, and the readers and writers of the packed execution state ({@link InstanceData#exec})
 * that every phase uses (docs/SEMANTICS.md section 1, the per-agent execution state). One per
 * {@link ChunkRunner}, created with it; the phase objects hold a final reference to it.
 *
 * <p>Allocation: only in {@link #ensureCapacity}. THREADING: confined to its worker.
 */
final class ChunkState {
    /** {@link #firedTransition} value for the restart from root. */
    static final int RESTART = -2;
    /** {@link #firedTransition} value for a tree a global task finished (rule G2; the status in {@link #globalStatus}). */
    static final int GLOBAL_DONE = -3;
    /** {@link #firedTransition} value for an agent a throwing node failed (rule R1; {@link NodeFaults}). */
    static final int FAULTED = -4;
    /**
     * {@link #firedTransition} values from this one down: a transition a composite's rule fired to
     * state {@code COMPOSITE_FIRED - value} (rules K4, K5; {@link #compositeFired}, {@link #compositeTarget}).
     */
    static final int COMPOSITE_FIRED = -16;
    /**
     * Flag on a {@link #firedTransition} value {@code >= 0}: the transition fires because the delay
     * it armed ran out, without being tested again (rule U4, {@code unreal-5.8}); it consumes no event.
     */
    static final int BY_ARMED_GATE = 1 << 30;
    /** Fault isolation for the chunk (rules R1-R4). */
    final NodeFaults faults = new NodeFaults(this);
    /** Linked states' subtree parameters, on selection and on EnterState (rules A16.5, L3). */
    final LinkedParameters linked;
    /** States' own parameters, on selection and on EnterState (rules X3, X4). */
    final StateParameterValues params;
    /** {@link #xFlags}: in X / a timer is due / has events / completed / fired / finished by a global task. */
    static final byte X_IN = 1, X_DUE = 2, X_EVENT = 4, X_DONE = 8, X_FIRED = 16, X_GLOBAL = 32;
    /**
     * {@link #doneAt}: not completed / completed before this tick (every timer pauses) / completed on
     * a path without tasks (rule U6).
     */
    static final int NOT_DONE = -2, DONE_BEFORE = -1, NO_TASKS = -3;
    static final int PERIODS = 7;

    final StateTreeSystem sys;
    /** The world of the agents (ids and their generations). */
    final World world;
    final CompiledStateTree t;
    final InstanceData d;
    final ContextControl control = new ContextControl();
    final NodeContext ctx = control.context();
    final int groups;

    // ---- chunk-sized scratch, indexed by local row unless said otherwise ----
    int capacity;
    /** X per period (log2), global rows; sorted by last active state before TickTasks. */
    final int[][] x = new int[PERIODS][0];
    final int[] xCount = new int[PERIODS];
    byte[] xFlags = new byte[0];
    byte[] status = new byte[0];
    /** What the global tasks reported in this tick (RUNNING outside X), see {@link GlobalTaskPhase}. */
    byte[] globalStatus = new byte[0];
    int[] doneAt = new int[0];
    /** Decided in this pass (fired or blocked) when equal to {@link #epoch}. */
    int[] decStamp = new int[0];
    int epoch;
    int[] firedTransition = new int[0];
    int[] nextLeaf = new int[0];
    /** The depth from which a round-one transition exits and enters states as changed (rule U3; 8: none). */
    byte[] changedFrom = new byte[0];
    /** With {@link #explain}: the completion a round-one scan ran with, and its completed state's depth. */
    byte[] whyStatus = new byte[0], whyDepth = new byte[0];
    int[] oldLeaf = new int[0];
    int[] firedRows = new int[0];
    int fired;
    int[] cand = new int[0];
    boolean[] pass = new boolean[0];
    boolean[] tmp = new boolean[0];
    int[] popped = new int[0];
    int[] groupOf = new int[0];
    /** Rows for EVERY_TICK evaluators per period, and their counts. */
    final int[][] evalRows = new int[PERIODS][0];
    final int[] evalCount = new int[PERIODS];
    /** Per-step order of the always-awake agents that take part, by (period, group), for chunks with periods. */
    int[] lodOrder = new int[0];
    final int[][] lodBegin;
    final int[] histogram;
    /** Per state, where its agents start in the state-sorted X of the pass ({@link SchedulePhase#sliceX}). */
    final int[] xBegin;
    final int[] one = new int[1];
    final boolean[] oneOut = new boolean[1];
    final int[] chain = new int[CompiledStateTree.MAX_DEPTH];
    final int[] exited = new int[CompiledStateTree.MAX_DEPTH];
    final int[] nextPath = new int[CompiledStateTree.MAX_DEPTH];
    final byte[] exitedChange = new byte[CompiledStateTree.MAX_DEPTH];

    // ---- the chunk being processed ----
    ChunkSchedule cs;
    int base;
    int rows;
    int step;
    long tick;
    float hostDt;
    /** The period of the pass being run (1 outside tick passes: start and stop). */
    int period = 1;
    int listLog;
    ChunkOutput out;
    /** Lines are wanted for some rows: tracing, or agents watched ({@link Recorder#watch}). */
    boolean tracing;
    /**
     * The why-line bookkeeping is on: tracing with a {@code why} line after each transition
     * ({@code StateTreeRuntime.setExplain}), or agents watched (their lines include why lines).
     */
    boolean explain;
    /** The sink wants why lines ({@code setExplain} and tracing). */
    boolean explainSink;
    /** The watched agents' bits by agent id ({@link Recorder#watchBits}), or null when none is watched. */
    long[] watchBits;
    /** Counting for the {@link Recorder} into {@link #out} ({@code StateTreeRuntime.setRecording}). */
    boolean recording;
    /** With {@link #recording}: every row's occupancy, not only what the transitions changed ({@link Observers#countingAll}). */
    boolean countingAll;
    int traceAgent;
    int awake;
    /** The packed execution state per row ({@link InstanceData#exec}). */
    long[] exec;
    short[] gate;
    float[] gateValue;
    int[] gateDue;
    int[] changes;
    /** Depth + 1 of the state that completed (0: none); see {@link #setLast(int, byte, int)}. */
    byte[] done;
    /** The LOD periods (log2) the host asked for, in trees with state tick periods ({@link InstanceData#lod}). */
    byte[] lod;
    int[] ids;

    /** Sink for {@link #touch} and the other prefetching loops: keeps their loads alive. */
    long sink;

    ChunkState(StateTreeSystem sys, InstanceData data) {
        control.bindHost(sys.host().arrays, sys.host().externals);
        this.sys = sys;
        this.world = sys.world();
        this.t = data.tree;
        this.d = data;
        this.linked = new LinkedParameters(t);
        this.params = new StateParameterValues(t);
        this.groups = t.awakeGroupCount;
        this.lodBegin = new int[PERIODS][groups + 1];
        this.histogram = new int[t.stateCount + 1];
        this.xBegin = new int[t.stateCount + 1];
    }

    /** Sizes scratch for chunks of {@code n} rows (simulation thread, before phases); the caller checked {@code n > capacity}. */
    void ensureCapacity(int n) {
        capacity = n;
        faults.ensureCapacity(n);
        for (int p = 0; p < PERIODS; p++) {
            x[p] = new int[n];
            evalRows[p] = new int[n];
        }
        xFlags = new byte[n];
        status = new byte[n];
        Arrays.fill(status, RunStatus.RUNNING);
        globalStatus = new byte[n];
        Arrays.fill(globalStatus, RunStatus.RUNNING);
        doneAt = new int[n];
        Arrays.fill(doneAt, NOT_DONE);
        decStamp = new int[n];
        firedTransition = new int[n];
        nextLeaf = new int[n];
        changedFrom = new byte[n];
        whyStatus = new byte[n];
        whyDepth = new byte[n];
        oldLeaf = new int[n];
        firedRows = new int[n];
        cand = new int[n];
        pass = new boolean[n];
        tmp = new boolean[n];
        popped = new int[n];
        groupOf = new int[n];
        lodOrder = new int[n];
        control.ensureScratch(t.maxConditionDepth + 1, n);
    }

    /** Binds the chunk and the columns. */
    void bind(ChunkSchedule schedule, int chunkBase, int chunkEnd, ChunkOutput output, long tickNumber, int stepNumber) {
        cs = schedule;
        base = chunkBase;
        rows = chunkEnd - chunkBase;
        out = output;
        tick = tickNumber;
        step = stepNumber;
        Observers o = sys.observers();
        watchBits = o.watchBits();
        tracing = o.tracing() || watchBits != null;
        explainSink = o.explaining();
        explain = explainSink || watchBits != null;
        recording = o.recording();
        countingAll = o.countingAll;
        traceAgent = o.tracing() ? o.traceAgent : NO_AGENT;
        bindColumns();
        control.bindSlots(d.floats, d.ints, d.bools, ids);
        control.bindStatus(status, chunkBase);
        period = 1;
    }

    /** Reads the execution-state column arrays as of the last {@link InstanceData#refresh}. */
    void bindColumns() {
        exec = d.exec;
        gate = d.gate;
        gateValue = d.gateValue;
        gateDue = d.gateDue;
        changes = d.changes;
        done = d.done;
        lod = d.lod;
        ids = d.ids;
    }

    // ---- the packed execution state (InstanceData#exec, coded by ExecWord): inlined by the JIT ----

    /** Last active state + 1 (0: empty path). */
    int stateOf(int r) {
        return ExecWord.state(exec[r]);
    }

    void setState(int r, int v) {
        exec[r] = ExecWord.withState(exec[r], v);
    }

    /** The task whose EnterState failed + 1 (0: none). */
    int failedOf(int r) {
        return ExecWord.failed(exec[r]);
    }

    void setFailed(int r, int v) {
        exec[r] = ExecWord.withFailed(exec[r], v);
    }

    byte runOf(int r) {
        return ExecWord.run(exec[r]);
    }

    void setRun(int r, byte v) {
        exec[r] = ExecWord.withRun(exec[r], v);
    }

    byte lastOf(int r) {
        return ExecWord.last(exec[r]);
    }

    void setLast(int r, byte v) {
        exec[r] = ExecWord.withLast(exec[r], v);
    }

    /**
     * The last tick status and, for a completion, the depth of the state whose task completed:
     * only it and its ancestors match completion triggers (docs/SEMANTICS.md section 4).
     */
    void setLast(int r, byte v, int completedDepth) {
        setLast(r, v);
        done[r] = (byte) (RunStatus.isCompletion(v) ? completedDepth + 1 : 0);
    }

    /** The {@link #firedTransition} value of a transition a composite's rule fired to {@code target}. */
    static int compositeFired(int target) {
        return COMPOSITE_FIRED - target;
    }

    /** The target of {@link #firedTransition} value {@code fired} if a composite's rule fired it, else -1. */
    static int compositeTarget(int fired) {
        return fired <= COMPOSITE_FIRED ? COMPOSITE_FIRED - fired : -1;
    }

    /** Whether {@link #firedTransition} value {@code fired} is flagged {@link #BY_ARMED_GATE}. */
    static boolean byArmedGate(int fired) {
        return fired >= 0 && (fired & BY_ARMED_GATE) != 0;
    }

    /** {@link #firedTransition} value {@code fired} without its {@link #BY_ARMED_GATE} flag. */
    static int withoutGateFlag(int fired) {
        return fired >= 0 ? fired & ~BY_ARMED_GATE : fired;
    }

    /** The tick period byte: log2 in bits 0-2, a requested log2 in bits 4-6, bit 7 while requested. */
    byte lodOf(int r) {
        return ExecWord.lod(exec[r]);
    }

    void setLod(int r, byte v) {
        exec[r] = ExecWord.withLod(exec[r], v);
    }

    /**
     * In a tree with state tick periods, row {@code r}'s running tree has a new active path (or Start
     * entered one): its period byte aims at the larger of its LOD period and the path's (rules Z2,
     * Z3), a pending change when that differs from the period in effect, none when it does not.
     */
    void aimPeriod(int r) {
        int cur = lodOf(r) & 7;
        int target = t.tickPeriods.targetLog(lod[r], stateOf(r) - 1);
        setLod(r, (byte) (target == cur ? cur : cur | target << 4 | InstanceData.LOD_PENDING));
    }

    /** Cancels row {@code r}'s pending gate. */
    void clearGate(int r) {
        gate[r] = 0;
        exec[r] &= ~ExecWord.GATE_BIT;
        gateValue[r] = 0f;
        gateDue[r] = 0;
    }

    // ---- X, the extra agents of the step ----

    /** Adds local row {@code l} to X (of its period) with {@code flag}; a row is in X at most once. */
    void addX(int l, byte flag) {
        byte f = xFlags[l];
        if ((f & X_IN) == 0) {
            int p = cs.periodAgents == 0 ? 0 : lodOf(base + l) & 7;
            x[p][xCount[p]++] = base + l;
            f |= X_IN;
        }
        xFlags[l] = (byte) (f | flag);
    }

    /** The generation of the agent in row {@code r} (an event's address, with its id). */
    int generation(int r) {
        return world.generationOf(ids[r]);
    }

    /** Whether row {@code r} takes part in this step (docs/SEMANTICS.md section 12). */
    boolean takesPart(int r) {
        return cs.periodAgents == 0 || ((step + ids[r]) & ((1 << (lodOf(r) & 7)) - 1)) == 0;
    }

    /**
     * Loads the execution-state columns and schedule entries of {@code rs[from..to)} in one tight loop
     * before the agents are processed one by one. The agents of a sparse set (due, evented, fired)
     * are scattered over the table, so each column access is a cache miss; in a loop of independent
     * loads the processor overlaps dozens of them, where the per-agent code (exit, enter, re-file)
     * would wait for them one after another.
     */
    void touch(int[] rs, int from, int to) {
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

    // ---- trace ----

    /** {@link #traceAgent} when no sink is set: no agent. */
    static final int NO_AGENT = -2;

    /**
     * Whether lines of row {@code r} are wanted: tracing on and no filter or this agent, or the
     * agent watched (a read of the watched bits only when someone is watched).
     */
    boolean traced(int r) {
        if (!tracing) {
            return false;
        }
        int id = ids[r];
        return traceAgent == -1 || id == traceAgent || watched(id);
    }

    /** Whether agent {@code id} is watched ({@link Recorder#watch}). */
    private boolean watched(int id) {
        final long[] w = watchBits;
        return w != null && (id >>> 6) < w.length && (w[id >>> 6] & (1L << id)) != 0;
    }

    /**
     * Whether row {@code r}'s transitions get a {@code why} line: the sink explains and traces it,
     * or the agent is watched.
     */
    boolean wantsWhy(int r) {
        if (!explain) {
            return false;
        }
        int id = ids[r];
        return (explainSink && (traceAgent == -1 || id == traceAgent)) || watched(id);
    }

    /**
     * Whether the why bookkeeping of row {@code r}'s decisions is kept: explaining to the sink, or
     * the agent watched (a superset of {@link #wantsWhy}, so watching costs nothing for the others).
     */
    boolean explains(int r) {
        return explain && (explainSink || watched(ids[r]));
    }

    /** With {@link #explain}: the completion a batched round-one decision for row {@code r} ran with (its last status). */
    void noteWhy(int r) {
        if (explains(r)) {
            whyStatus[r - base] = lastOf(r);
            whyDepth[r - base] = (byte) (done[r] - 1);
        }
    }

    void trace(int r, String line) {
        out.traceAgents.add(ids[r]);
        out.traceWhy.add(0);
        out.traceLines.add(line);
    }

    /** A {@code why} line of row {@code r}: for the sink only when it explains. */
    void traceWhy(int r, String line) {
        out.traceAgents.add(ids[r]);
        out.traceWhy.add(1);
        out.traceLines.add(line);
    }
}
