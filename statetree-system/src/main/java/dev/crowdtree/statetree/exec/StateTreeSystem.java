package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.HostDeclarations;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Payload;
import dev.crowdtree.statetree.node.RunStatus;
import org.jctools.queues.MpscUnboundedArrayQueue;

import java.util.List;

/**
 * The batched StateTree runtime: every agent of a {@link SoaTable} runs one instance of a
 * {@link CompiledStateTree}, whose per-agent data lives in columns the runtime adds to that table
 * (execution state plus the compiler's slots for parameters, evaluator outputs, task fields and
 * timers). One tick is one parallel phase over the table's chunks; within a chunk every node runs as
 * a batch kernel, only over the agents that have something to do. Sleeping agents cost nothing per
 * tick (docs/SEMANTICS.md section 11); agents with a tick period p take part in every p-th tick
 * (section 12).
 *
 * <p><b>Agent ids and rows.</b> An agent id ({@code int agent}) names one agent for its whole life
 * (the world hands a freed id out again only with a new generation); a row ({@code int row}) is where
 * the agent's values are in the table's columns now, and changes when the world moves rows (a
 * despawn moves the last row into the gap; {@code World.reorder}). The rule, for this runtime and for
 * the whole library: a method takes agent ids unless its name ends in {@code OfRow}
 * ({@link #activeStateOfRow}, {@link #setTickPeriodOfRow}) or it is a per-row hook
 * ({@link #initializeRow}, a {@code SpawnInitializer}); column arrays, node kernels
 * ({@code NodeContext}) and chunk kernels work by row, and a {@code NodeContext} method that takes an
 * id says so ({@code sendEventToAgent}, {@code generationOf}). Convert with {@code World.rowOf(id)}
 * and {@code table.agentIds().data()[row]}.
 *
 * <p>Determinism: chunk outputs (events to other agents, events carried to the next tick, trace
 * lines) are merged in chunk order after the barrier; randomness is counter-based per agent; the
 * schedules depend only on the columns and the inputs; so the same seed and inputs give the same
 * bits for any number of workers, and the same results as the per-agent reference interpreter.
 *
 * <p>Events: {@link #sendEvent} (simulation thread) and {@link #externalEvents()} (any thread, a
 * JCTools MPSC queue drained at the start of the next tick, sorted by a stable key) queue events
 * for the next tick; tasks send events through their {@code NodeContext}. See docs/SEMANTICS.md.
 *
 * <p>Steps: the runtime counts its {@link #tickAll} calls (steps 1, 2, ...); timers and periods are
 * in steps, so at most {@code Integer.MAX_VALUE - 1} ticks per runtime. A tick with a different dt
 * than the one before re-derives every running timer (one pass over the agents).
 *
 * <p>Allocation: a steady tick allocates nothing while tracing is off, but the text of the lines
 * watched agents print ({@code Recorder.watch}). THREADING: all public methods are for the
 * simulation thread, except {@link #externalEvents()} and {@link #setTickPeriodOfRow}.
 */
public final class StateTreeSystem implements StateTreeRuntime {
    /*
     * Inside (docs/ARCHITECTURE.md): InstanceData holds the per-agent columns; a ChunkRunner per worker
     * runs a chunk's phases with its persistent ChunkSchedule (always-awake agents by state, a timer
     * wheel); EventRouter routes events and merges the chunks' outputs; HostRequests and HostBinding
     * hold what the host set and bound.
     */

    /** Sub-phases timed per chunk (summed worker CPU time), see {@link #phaseNanos()}. */
    public static final List<String> PHASES = List.of("schedule", "evaluators", "tasks", "transitions", "apply");

    private final World world;
    private final boolean ownsWorld;
    private final SoaTable table;
    private final CompiledStateTree tree;
    private final InstanceData data;
    private final HostBinding host;
    private boolean accessChecks;
    private final Despawns despawns;

    /**
     * Rows per chunk of this runtime's phases: the world's chunk, or four of them (at most 16,384) when
     * the world's have 1,024 or more: a chunk's tick touches a few dozen cold cache lines whatever
     * happens in it, so fewer, larger chunks make sleepy ticks cheaper; results do not depend on it.
     */
    private final int chunkRows;
    private final ChunkRunner[] runners;
    private final EventRouter events;
    private final HostRequests requests;
    private ChunkSchedule[] schedules = new ChunkSchedule[0];
    private ChunkOutput[] outputs = new ChunkOutput[0];
    private final PhaseTimes times;
    /** Steps run so far (tickAll calls). */
    private int steps;
    /** The host dt every running timer's due step was derived with. */
    private float timerDt;
    private int awakeLastTick;
    private final Observers observers; // the trace, its why lines, the population counters and watched agents

    private final SystemKernels.Tick tickKernel = new SystemKernels.Tick(this);
    private final SystemKernels.StartStop startKernel = new SystemKernels.StartStop(this, true);
    private final SystemKernels.StartStop stopKernel = new SystemKernels.StartStop(this, false);
    private final SystemKernels.Rebase rebaseKernel = new SystemKernels.Rebase(this);
    private long currentTick;
    private float currentDt;

    /**
     * Attaches a tree to {@code table}: adds its columns (named {@code st.<tree>.*}) and gives the
     * existing rows their parameter defaults. Rows spawned later must be initialized with
     * {@link #initializeRow} (or spawned through {@link #spawnInitializer}).
     *
     * @throws IllegalArgumentException when the world's chunks are larger than {@value ChunkSchedule#MAX_ROWS} rows
     */
    public StateTreeSystem(World world, SoaTable table, CompiledStateTree tree) {
        this(world, table, tree, false);
    }

    private StateTreeSystem(World world, SoaTable table, CompiledStateTree tree, boolean ownsWorld) {
        if (world.chunkSize() > ChunkSchedule.MAX_ROWS) {
            throw new IllegalArgumentException("chunkSize = " + world.chunkSize() + " is too large for a StateTreeSystem; "
                    + "valid range is 1.." + ChunkSchedule.MAX_ROWS + " rows per chunk");
        }
        this.world = world;
        this.ownsWorld = ownsWorld;
        this.table = table;
        this.tree = tree;
        this.observers = new Observers(tree);
        this.host = new HostBinding(tree, table, ownsWorld);
        this.data = new InstanceData(table, tree);
        int wc = world.chunkSize();
        this.chunkRows = wc < 1024 ? wc : Math.max(wc, Math.min(ChunkSchedule.MAX_ROWS / 2, wc * 4));
        this.timerDt = world.clock().dt();
        this.events = new EventRouter(this, table, tree);
        this.requests = new HostRequests(this, data, chunkRows);
        runners = new ChunkRunner[world.workers()];
        times = new PhaseTimes(world.workers(), PHASES.size());
        for (int w = 0; w < runners.length; w++) {
            runners[w] = new ChunkRunner(this, data);
        }
        for (int r = 0; r < table.size(); r++) {
            initializeRow(r);
        }
        table.addRowListener(this::rowsChanged);
        this.despawns = new Despawns(this, world, table, ownsWorld);
    }

    /** Only for a runtime that owns its world; in a host's world, despawn through {@code World.commands()}. */
    @Override
    public void despawn(int agent, long tick) {
        despawns.despawn(agent, tick);
    }

    /** The dt of the tick being run. */
    float currentDt() {
        return currentDt;
    }

    ChunkRunner runner(int worker) {
        return runners[worker];
    }

    ChunkOutput output(int chunk) {
        return outputs[chunk];
    }

    PhaseTimes times() {
        return times;
    }

    long currentTick() {
        return currentTick;
    }

    /** Rows moved or changed owner: their chunks' schedules are rebuilt before the next tick. */
    private void rowsChanged(int from, int to) {
        int cs = chunkRows;
        for (int c = from / cs, last = Math.min(schedules.length - 1, (to - 1) / cs); c <= last; c++) {
            schedules[c].dirty = true;
        }
    }

    /**
     * A self-contained runtime for {@code agents} agents (ids 0..agents-1) in a world of its own,
     * closed with the runtime. Used by the scenario runner, the tests and the benchmarks.
     */
    public static StateTreeSystem standalone(CompiledStateTree tree, int agents, long seed, int workers, int chunkSize) {
        World w = World.builder().workers(workers).chunkSize(chunkSize).seed(seed)
                .maxAgents(Math.max(1, agents)).initialCapacity(Math.max(1, agents)).build();
        SoaTable t = w.createTable("agents");
        StateTreeSystem sys = new StateTreeSystem(w, t, tree, true);
        SpawnInitializer init = sys.spawnInitializer(SpawnInitializer.NONE);
        for (int i = 0; i < agents; i++) {
            w.commands().spawn(t, init, 0);
        }
        w.sync();
        return sys;
    }

    /** {@link #standalone} with chunks of 64 rows, so that even small populations span chunks. */
    public static StateTreeRuntime create(CompiledStateTree tree, int agents, long seed, int workers) {
        return standalone(tree, agents, seed, workers, 64);
    }

    /** Sets the parameter defaults of {@code row} (a freshly spawned, zeroed row). */
    public void initializeRow(int row) {
        requests.initializeRow(row);
    }

    /** A spawn initializer that initializes the tree's columns, then calls {@code next}. */
    public SpawnInitializer spawnInitializer(SpawnInitializer next) {
        return (t, row, id, arg) -> {
            initializeRow(row);
            next.initialize(t, row, id, arg);
        };
    }

    @Override
    public CompiledStateTree tree() {
        return tree;
    }

    public SoaTable table() {
        return table;
    }

    public World world() {
        return world;
    }

    long seed() {
        return world.seed();
    }

    Observers observers() {
        return observers;
    }

    @Override
    public int agentCount() {
        return table.size();
    }

    /** The host dt the due steps of running timers were derived with. */
    float timerDt() {
        return timerDt;
    }

    EventRouter events() {
        return events;
    }

    HostRequests requests() {
        return requests;
    }

    /** Steps run so far. */
    int steps() {
        return steps;
    }

    /** Sets what a snapshot restores beyond the columns and events ({@link Snapshots}). */
    void restoreCounters(int stepCount, float dt, long tick, int awake) {
        steps = stepCount;
        timerDt = dt;
        currentTick = tick;
        awakeLastTick = awake;
    }

    /** Writes this runtime's snapshot (docs/SNAPSHOT.md): the whole table and world ids, counters, queued events. */
    @Override
    public void snapshot(java.io.OutputStream out) throws java.io.IOException {
        Snapshots.write(this, out);
    }

    @Override
    public void restore(java.io.InputStream in) throws java.io.IOException {
        Snapshots.restore(this, in);
    }

    /** The chunks' schedules (replaced when the table grows). */
    ChunkSchedule[] schedules() {
        return schedules;
    }

    // ---- ticking --------------------------------------------------------------------------------

    /** One tick with the world clock's current tick number and dt. */
    public void tick() {
        tickAll(world.clock().tick(), world.clock().dt());
    }

    @Override
    public void tickAll(long tick, float dt) {
        if (steps == InstanceData.NEVER - 1) {
            throw new IllegalStateException("this runtime has run " + steps + " ticks, the most its step counter holds");
        }
        steps++;
        currentTick = tick;
        currentDt = dt;
        observers.beginTick();
        prepare();
        if (Float.floatToIntBits(dt) != Float.floatToIntBits(timerDt)) {
            rebaseKernel.oldDt = timerDt;
            world.executor().run(rebaseKernel, table.size(), chunkRows);
            timerDt = dt;
            for (ChunkSchedule s : schedules) {
                s.dirty = true;
            }
        }
        events.distribute(chunkRows);
        world.executor().run(tickKernel, table.size(), chunkRows);
        finish();
        awakeLastTick = events.awake;
        observers.endTick(tick, outputs, table.chunkCount(chunkRows), events);
    }

    @Override
    public void startAll(long tick) {
        runStart(tick, true);
    }

    /** Starts every agent whose tree was never started (for example freshly spawned ones). */
    public void startNew(long tick) {
        runStart(tick, false);
    }

    private void runStart(long tick, boolean all) {
        currentTick = tick;
        prepare();
        startKernel.all = all;
        world.executor().run(startKernel, table.size(), chunkRows);
        finish();
    }

    @Override
    public void stop(int agent, long tick) {
        currentTick = tick;
        prepare();
        if (agent == ALL) {
            world.executor().run(stopKernel, table.size(), chunkRows);
        } else {
            int row = rowOf(agent);
            if (row >= 0) {
                int cs = chunkRows;
                int c = row / cs;
                runners[0].stopRange(schedules[c], c * cs, Math.min(table.size(), (c + 1) * cs), row, row + 1,
                        outputs[c], tick, steps);
            }
        }
        finish();
    }

    private void prepare() {
        observers.occupancyDirty |= !observers.recordingTick; // a start or a stop, not a tick
        host.requireExternals();
        host.refresh();
        if (accessChecks) {
            host.checkBefore(data.columns());
        }
        data.refresh();
        requests.ensureLists();
        int cs = chunkRows;
        int chunks = table.chunkCount(cs);
        outputs = ChunkOutput.ensure(outputs, chunks, tree.payloads.fieldCount(), events.mismatchKeys.size());
        schedules = ChunkSchedule.ensure(schedules, chunks, cs, tree.awakeGroupCount);
        ChunkOutput.clear(outputs, chunks, observers.recordingTick ? observers.recorder : null);
        int rows = Math.min(cs, Math.max(1, table.size()));
        for (ChunkRunner r : runners) {
            r.ensureCapacity(rows);
        }
    }

    /** Merges chunk outputs in chunk order and delivers trace lines sorted by agent. */
    private void finish() {
        int chunks = table.chunkCount(chunkRows);
        events.merge(outputs, chunks);
        observers.deliver(outputs, chunks);
        if (accessChecks) {
            host.checkAfter();
        }
    }

    /** The host columns and externals the tree's nodes use, bound to this system's table. */
    HostBinding host() {
        return host;
    }

    @Override
    public void bindExternal(String name, Object value) {
        host.bindExternal(name, value);
    }

    /**
     * With checks on, every start, tick and stop fails if it changed a column of the table that no
     * node of the tree declares as written (the runtime's own columns aside): the nodes' declared
     * accesses are the tree's access set. Costs a hash of those columns twice per call; for tests
     * and debugging.
     */
    public void setAccessChecks(boolean on) {
        accessChecks = on;
    }

    /** The row of agent {@code agentId} in this system's table, or -1. */
    int rowOf(int agentId) {
        return world.tableOf(agentId) == table ? world.rowOf(agentId) : -1;
    }

    /** The row of agent {@code agentId}; throws when it is not in this system's table. */
    int requireRow(int agentId) {
        int row = rowOf(agentId);
        if (row < 0) {
            throw new IllegalArgumentException("no agent " + agentId + " in table '" + table.name() + "' of " + table.size() + " agents (despawned ids are not valid)");
        }
        return row;
    }

    // ---- inputs ---------------------------------------------------------------------------------

    @Override
    public void setParameter(int agent, String name, double value) {
        requests.setParameter(agent, name, value);
    }

    @Override
    public void sendEvent(int agent, String tag, Payload payload) {
        events.send(agent, tag, payload);
    }

    @Override
    public void sendEvent(int agent, String tag, float payload, boolean hasPayload) {
        events.send(agent, tag, payload, hasPayload); // the interface's, without allocating
    }

    /** As above, the tag resolved once by the host with {@code tree().eventTagId(tag)} (-1: dropped and counted). */
    public void sendEvent(int agent, int tagId, float payload, boolean hasPayload) {
        events.send(agent, tagId, payload, hasPayload);
    }

    /** The queue other threads offer events to: drained at the next tick, ordered by (agent, tag, payload). */
    public MpscUnboundedArrayQueue<ExternalEvent> externalEvents() {
        return events.external;
    }

    @Override
    public void setNodeErrorPolicy(NodeErrorPolicy policy) {
        for (ChunkRunner r : runners) {
            r.setIsolate(policy == NodeErrorPolicy.ISOLATE);
        }
    }

    @Override
    public FailureLog failures() {
        return events.failures;
    }

    /** Events dropped because their agent was gone or their tag is used by no transition or node. */
    public long droppedEvents() {
        return events.droppedEvents;
    }

    @Override
    public long overflowedEvents() {
        return events.overflowEvents;
    }

    @Override
    public List<PayloadMismatch> unmatchedPayloads() {
        return events.unmatchedPayloads();
    }

    @Override
    public void setTickPeriod(int agent, int period) {
        requests.setTickPeriod(agent, period);
    }

    /**
     * {@link #setTickPeriod} by row, for hosts that compute periods in their own parallel phase.
     * THREADING: callable from a kernel of a phase run with {@code world.runPhase} on this system's
     * table, for rows of that kernel's chunk, or from the simulation thread between phases.
     *
     * @throws IllegalArgumentException for a period that is not a power of two in 1..{@value #MAX_TICK_PERIOD}
     */
    public void setTickPeriodOfRow(int row, int period) {
        requests.setTickPeriodOfRow(row, period);
    }

    @Override
    public int tickPeriod(int agent) {
        return PeriodByte.period(data.lodOfRow(requireRow(agent)));
    }

    @Override
    public int awakeLastTick() {
        return awakeLastTick;
    }

    @Override
    public void setTrace(TraceSink sink) {
        setTrace(sink, -1);
    }

    @Override
    public void setExplain(boolean explain) {
        observers.explain = explain;
    }

    @Override
    public void setRecording(boolean on) {
        observers.setRecording(on);
    }

    @Override
    public Recorder recorder() {
        return observers.recorder;
    }

    /** Traces only agent {@code agentId} (lines of other agents are not even formatted). */
    public void setTrace(TraceSink sink, int agentId) {
        observers.setTrace(sink, agentId);
    }

    @Override
    public byte treeStatus(int agent) {
        int row = rowOf(agent);
        return row < 0 ? RunStatus.UNSET : data.runOfRow(row);
    }

    @Override
    public void setHostValue(int agent, String column, double value) {
        host.set(HostDeclarations.checkedColumn(tree, column, value), agent == ALL ? -1 : requireRow(agent), value);
    }

    @Override
    public double hostValue(int agent, String column) {
        return host.get(HostDeclarations.column(tree, column), requireRow(agent));
    }

    @Override
    public int activeState(int agent) {
        return data.stateOfRow(requireRow(agent));
    }

    @Override
    public String activePath(int agent) {
        int row = rowOf(agent), s = row < 0 ? -1 : data.stateOfRow(row);
        return s < 0 ? "" : tree.statePath(s);
    }

    @Override
    public double parameter(int agent, int param) {
        return Observers.parameter(tree, param, data.floats, data.ints, data.bools, requireRow(agent));
    }

    @Override
    public List<String> queuedEvents(int agent) {
        return events.queued(agent, requireRow(agent));
    }

    /** The active last state of {@code row}, or -1 (for kernels and viewers). */
    public int activeStateOfRow(int row) {
        return data.stateOfRow(row);
    }

    /** Counts running agents per active last state into {@code counts} (length >= stateCount). */
    public void countActiveStates(int[] counts) {
        data.countActiveStates(counts);
    }

    /** The state-change count of an agent (Unreal's {@code StateChangeCount}). */
    public int stateChangeCount(int agent) {
        int row = rowOf(agent);
        return row < 0 ? 0 : data.stateChangeCount(row);
    }

    /** Bytes of per-agent data this system adds to each row (execution state plus slots). */
    public int bytesPerAgent() {
        return data.bytesPerAgent();
    }

    /** Turns per-sub-phase timing on or off (off by default; costs a few nanoTime calls per chunk). */
    public void setTiming(boolean on) {
        times.on = on;
    }

    /** Summed worker nanoseconds per sub-phase ({@link #PHASES}) since the last reset. */
    public long[] phaseNanos() {
        return times.sum();
    }

    /** Resets {@link #phaseNanos()}. */
    public void resetPhaseNanos() {
        times.reset();
    }

    /** All columns this system added to the table. */
    public List<Column> columns() {
        return data.columns();
    }

    @Override
    public void close() {
        if (ownsWorld) {
            world.close();
        }
    }
}
