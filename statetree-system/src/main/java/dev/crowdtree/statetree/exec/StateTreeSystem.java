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
     * The facade (docs/ARCHITECTURE.md): the public API, kept here, over an Engine, which owns the
     * parts (InstanceData's per-agent columns, HostBinding and HostRequests for what the host set and
     * bound, the Chunks' schedules and outputs, a ChunkRunner per worker, the EventRouter, the
     * Observers, the PhaseTimes) and runs a call's phases with a TickFrame for the chunks. No part
     * calls back into this class; EventTransfer, whose public methods take it, reaches the engine
     * through engine(), its only package-private member (EngineArchTest).
     */

    /** Sub-phases timed per chunk (summed worker CPU time), see {@link #phaseNanos()}. */
    public static final List<String> PHASES = List.of("schedule", "evaluators", "tasks", "transitions", "apply");

    private final World world;
    private final boolean ownsWorld;
    private final SoaTable table;
    private final CompiledStateTree tree;
    private final Engine engine;
    // the engine's parts the public methods use
    private final InstanceData data;
    private final HostBinding host;
    private final EventRouter events;
    private final HostRequests requests;
    private final Observers observers;
    private final AgentRows rows;
    private final Despawns despawns;

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
        this.engine = new Engine(world, table, tree, ownsWorld, PHASES.size());
        this.data = engine.data;
        this.host = engine.host;
        this.events = engine.events;
        this.requests = engine.requests;
        this.observers = engine.observers;
        this.rows = engine.rows;
        this.despawns = new Despawns(engine, ownsWorld);
    }

    /**
     * The engine behind this facade, for the public entry points of the package that take a runtime
     * as their argument ({@link EventTransfer}); nothing else reaches it through here.
     */
    Engine engine() {
        return engine;
    }

    /** Only for a runtime that owns its world; in a host's world, despawn through {@code World.commands()}. */
    @Override
    public void despawn(int agent, long tick) {
        despawns.despawn(agent, tick);
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

    @Override
    public int agentCount() {
        return table.size();
    }

    /** Writes this runtime's snapshot (docs/SNAPSHOT.md): the whole table and world ids, counters, queued events. */
    @Override
    public void snapshot(java.io.OutputStream out) throws java.io.IOException {
        Snapshots.write(engine, out);
    }

    @Override
    public void restore(java.io.InputStream in) throws java.io.IOException {
        Snapshots.restore(engine, in);
    }

    // ---- ticking --------------------------------------------------------------------------------

    /** One tick with the world clock's current tick number and dt. */
    public void tick() {
        tickAll(world.clock().tick(), world.clock().dt());
    }

    @Override
    public void tickAll(long tick, float dt) {
        engine.tickAll(tick, dt);
    }

    @Override
    public void startAll(long tick) {
        engine.start(tick, true);
    }

    /** Starts every agent whose tree was never started (for example freshly spawned ones). */
    public void startNew(long tick) {
        engine.start(tick, false);
    }

    @Override
    public void stop(int agent, long tick) {
        engine.stop(agent, tick);
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
        engine.accessChecks = on;
    }

    private int rowOf(int agentId) {
        return rows.rowOf(agentId);
    }

    private int requireRow(int agentId) {
        return rows.requireRow(agentId);
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
        engine.setIsolate(policy == NodeErrorPolicy.ISOLATE);
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
        return engine.awakeLastTick;
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
        engine.times.on = on;
    }

    /** Summed worker nanoseconds per sub-phase ({@link #PHASES}) since the last reset. */
    public long[] phaseNanos() {
        return engine.times.sum();
    }

    /** Resets {@link #phaseNanos()}. */
    public void resetPhaseNanos() {
        engine.times.reset();
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
