package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.LinkedParameters;
import dev.crowdtree.statetree.internal.StateParameterValues;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;


/**
 * The chunk a worker's phases are running, bound: which chunk (its schedule, first row, row count,
 * output), the call's {@link TickFrame} as the phases read it (the tick's number, step, dt, the timers'
 * dt, the observers' switches: tracing, why lines, watched agents, recording), the pass's period, the
 * world's seed, the execution-state columns of {@link InstanceData} as of the
 * last refresh, and the worker's node context bound to the chunk's slots. Plus the row accessors
 * every phase uses: the packed execution word ({@link InstanceData#exec}, coded by {@link ExecWord};
 * docs/SEMANTICS.md section 1), the gate, the period aim, whether a row takes part in the step, an
 * agent's generation, the prefetching {@link #touch}, and whether a row's lines are wanted and the
 * lines themselves.
 *
 * <p>It holds no per-phase scratch: the set X of the step is {@link ExtraAgents}, the task phases'
 * per-row statuses are {@link TickStatus}, the scan's decisions for the apply phase are
 * {@link Decisions}, the faults are {@link NodeFaults}, and each phase owns the scratch only it uses.
 * {@link ChunkRunner} binds it at the start of each chunk ({@link #bind}); the phases read it and
 * write rows through its accessors. One per runner, created with it.
 *
 * <p>Allocation: only in {@link #ensureCapacity}. THREADING: confined to its worker.
 */
final class ChunkBinding {
    /** Linked states' subtree parameters, on selection and on EnterState (rules A16.5, L3). */
    final LinkedParameters linked;
    /** States' own parameters, on selection and on EnterState (rules X3, X4). */
    final StateParameterValues params;

    /** The world of the agents (ids and their generations). */
    final World world;
    /** The world's seed (of all randomness: node contexts, gate delays, random selection). */
    final long seed;
    final CompiledStateTree t;
    final InstanceData d;
    final ContextControl control = new ContextControl();
    final NodeContext ctx = control.context();
    final int groups;

    /** The chunk size the scratch of the runner's parts is sized for ({@link ChunkRunner#ensureCapacity}). */
    int capacity;

    // ---- the chunk being processed ----
    ChunkSchedule cs;
    int base;
    int rows;
    int step;
    long tick;
    float hostDt;
    /** The host dt the due steps of running timers are derived with ({@link TickFrame#timerDt}). */
    float timerDt;
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
    /** The pending transition requests, in trees whose tasks may request ({@link InstanceData#request}); else null. */
    short[] request;
    byte[] requestPriority;
    byte[] requestSource;
    int[] ids;

    /** Sink for {@link #touch} and the other prefetching loops: keeps their loads alive. */
    long sink;

    ChunkBinding(InstanceData data, HostBinding host, World world) {
        control.bindHost(host.arrays, host.externals);
        this.world = world;
        this.seed = world.seed();
        this.t = data.tree;
        this.d = data;
        this.linked = new LinkedParameters(t);
        this.params = new StateParameterValues(t);
        this.groups = t.awakeGroupCount;
    }

    /** Sizes the node context's scratch for chunks of {@code n} rows (simulation thread, before phases). */
    void ensureCapacity(int n) {
        capacity = n;
        control.ensureScratch(t.maxConditionDepth + 1, n);
    }

    /** Binds the chunk, the call's frame (but its dt, which only a tick's passes read) and the columns. */
    void bind(ChunkSchedule schedule, int chunkBase, int chunkEnd, ChunkOutput output, TickFrame f) {
        cs = schedule;
        base = chunkBase;
        rows = chunkEnd - chunkBase;
        out = output;
        tick = f.tick;
        step = f.step;
        timerDt = f.timerDt;
        watchBits = f.watchBits;
        tracing = f.tracing;
        explainSink = f.explainSink;
        explain = f.explain;
        recording = f.recording;
        countingAll = f.countingAll;
        traceAgent = f.traceAgent;
        bindColumns();
        control.bindSlots(d.floats, d.ints, d.bools, ids);
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
        request = d.request;
        requestPriority = d.requestPriority;
        requestSource = d.requestSource;
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
        setLod(r, PeriodByte.aiming(PeriodByte.log(lodOf(r)), t.tickPeriods.targetLog(lod[r], stateOf(r) - 1)));
    }

    /** Cancels row {@code r}'s pending gate. */
    void clearGate(int r) {
        gate[r] = 0;
        exec[r] &= ~ExecWord.GATE_BIT;
        gateValue[r] = 0f;
        gateDue[r] = 0;
    }

    /** The generation of the agent in row {@code r} (an event's address, with its id). */
    int generation(int r) {
        return world.generationOf(ids[r]);
    }

    /** Whether row {@code r} takes part in this step (docs/SEMANTICS.md section 12). */
    boolean takesPart(int r) {
        return cs.periodAgents == 0 || PeriodByte.takesPart(step, ids[r], lodOf(r));
    }

    /**
     * Loads the execution-state columns, schedule words and order positions ({@code ChunkSchedule.pos},
     * which re-filing reads when the agent changes group) of {@code rs[from..to)} in one tight loop
     * before the agents are processed one by one. The agents of a sparse set (due, evented, fired)
     * are scattered over the table, so each column access is a cache miss; in a loop of independent
     * loads the processor overlaps dozens of them, where the per-agent code (exit, enter, re-file)
     * would wait for them one after another.
     */
    void touch(int[] rs, int from, int to) {
        final long[] ex = exec;
        final int[] id = ids;
        final long[] mt = cs.meta;
        final short[] ps = cs.pos;
        final int b = base;
        long acc = 0;
        for (int i = from; i < to; i++) {
            int r = rs[i];
            acc += ex[r] + id[r] + mt[r - b] + ps[r - b];
        }
        // the due steps of the timers on each agent's path (known once its state is loaded); not their
        // remaining seconds, which a tick writes (a state entered) and reads only when dt changes: a
        // store that misses does not hold the agent up
        if (t.pathTimerTaskCount() > 0) {
            for (int i = from; i < to; i++) {
                int r = rs[i];
                int leaf = ((int) ex[r] & 0xFFFF) - 1;
                if (leaf >= 0) {
                    for (int j = t.statePathTimersBegin(leaf), end = t.statePathTimersBegin(leaf + 1); j < end; j++) {
                        int k = t.pathTimerTasks(j);
                        acc += d.ints[t.taskTimerDueSlot(k)][r];
                    }
                }
            }
        }
        sink += acc;
    }

    /** Reads {@code order[from..to)} one cache line at a time, so that its misses overlap (see {@link #touch}). */
    void touchOrder(int[] order, int from, int to) {
        long acc = 0;
        for (int i = from; i < to; i += 16) {
            acc += order[i];
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
