package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.ShortColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.AgentHandle;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.definition.ValueType;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.exec.TraceSink;
import org.jctools.queues.MpscUnboundedArrayQueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The batched StateTree runtime: every agent of a {@link SoaTable} runs one instance of a
 * {@link CompiledStateTree}, whose per-agent data lives in columns of that table (execution state
 * plus the compiler's slots for parameters, evaluator outputs and task fields). One tick is one
 * parallel phase over the table's chunks; within a chunk every node runs as a batch kernel (see
 * {@code ChunkRunner}), and transitions are applied per agent only where they fire.
 *
 * <p>Determinism: chunk outputs (events to other agents, events carried to the next tick, trace
 * lines) are merged in chunk order after the barrier; randomness is counter-based per agent; so the
 * same seed and inputs give the same bits for any number of workers.
 *
 * <p>Events: {@link #sendEvent} (simulation thread) and {@link #externalEvents()} (any thread, a
 * JCTools MPSC queue drained at the start of the next tick, sorted by a stable key) queue events
 * for the next tick; tasks send events through their {@code NodeContext}. See docs/SEMANTICS.md.
 *
 * <p>Allocation: a steady tick allocates nothing while tracing is off. THREADING: all public
 * methods are for the simulation thread, except {@link #externalEvents()}.
 */
public final class StateTreeSystem implements StateTreeRuntime {
    /** Sub-phases timed per chunk (summed worker CPU time), see {@link #phaseNanos()}. */
    public static final List<String> PHASES = List.of("events+gates", "evaluators", "tasks", "transitions", "apply");

    private final World world;
    private final boolean ownsWorld;
    private final SoaTable table;
    private final CompiledStateTree tree;

    final ShortColumn colState;
    final ByteColumn colRun;
    final ByteColumn colLast;
    final ShortColumn colGate;
    final FloatColumn colGateTime;
    final ShortColumn colFailedTask;
    final IntColumn colChanges;
    private final FloatColumn[] floatCols;
    private final IntColumn[] intCols;
    private final ByteColumn[] boolCols;
    private final float[][] floatSlots;
    private final int[][] intSlots;
    private final byte[][] boolSlots;

    private final ChunkRunner[] runners;
    private ChunkOutput[] outputs = new ChunkOutput[0];
    private final long[][] phaseNanos;
    private boolean timing;

    // events waiting for the next tick, and the current tick's events grouped by chunk
    private final EventBuffer incoming = new EventBuffer();
    private final EventBuffer byChunk = new EventBuffer();
    private int[] byChunkRow = new int[16];
    private int[] incomingRow = new int[16];
    private int[] chunkEventBegin = new int[2];
    private int[] cursor = new int[2];
    private final MpscUnboundedArrayQueue<ExternalEvent> external = new MpscUnboundedArrayQueue<>(1024);
    private final List<ExternalEvent> drained = new ArrayList<>();
    private long droppedEvents;

    private TraceSink trace;
    private int traceAgent = -1;

    private final TickKernel tickKernel = new TickKernel();
    private final StartKernel startKernel = new StartKernel();
    private final StopKernel stopKernel = new StopKernel();
    private long currentTick;
    private float currentDt;

    /**
     * Attaches a tree to {@code table}: adds its columns (named {@code st.<tree>.*}) and gives the
     * existing rows their parameter defaults. Rows spawned later must be initialized with
     * {@link #initializeRow} (or spawned through {@link #spawnInitializer}).
     */
    public StateTreeSystem(World world, SoaTable table, CompiledStateTree tree) {
        this(world, table, tree, false);
    }

    private StateTreeSystem(World world, SoaTable table, CompiledStateTree tree, boolean ownsWorld) {
        this.world = world;
        this.ownsWorld = ownsWorld;
        this.table = table;
        this.tree = tree;
        String p = "st." + tree.name + ".";
        colState = table.addShort(p + "state");
        colRun = table.addByte(p + "run");
        colLast = table.addByte(p + "last");
        colGate = table.addShort(p + "gate");
        colGateTime = table.addFloat(p + "gateTime");
        colFailedTask = table.addShort(p + "failedTask");
        colChanges = table.addInt(p + "changes");
        floatCols = new FloatColumn[tree.floatSlots];
        intCols = new IntColumn[tree.intSlots];
        boolCols = new ByteColumn[tree.boolSlots];
        for (int i = 0; i < floatCols.length; i++) {
            floatCols[i] = table.addFloat(p + tree.floatSlotNames[i] + "#" + i);
        }
        for (int i = 0; i < intCols.length; i++) {
            intCols[i] = table.addInt(p + tree.intSlotNames[i] + "#" + i);
        }
        for (int i = 0; i < boolCols.length; i++) {
            boolCols[i] = table.addByte(p + tree.boolSlotNames[i] + "#" + i);
        }
        floatSlots = new float[floatCols.length][];
        intSlots = new int[intCols.length][];
        boolSlots = new byte[boolCols.length][];
        runners = new ChunkRunner[world.workers()];
        phaseNanos = new long[world.workers()][PHASES.size()];
        for (int w = 0; w < runners.length; w++) {
            runners[w] = new ChunkRunner(this);
        }
        for (int r = 0; r < table.size(); r++) {
            initializeRow(r);
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
        for (int i = 0; i < tree.paramName.length; i++) {
            writeSlot(tree.paramType[i], tree.paramSlot[i], row, tree.paramDefault[i]);
        }
    }

    /** A spawn initializer that initializes the tree's columns, then calls {@code next}. */
    public SpawnInitializer spawnInitializer(SpawnInitializer next) {
        return (t, row, id, arg) -> {
            initializeRow(row);
            next.initialize(t, row, id, arg);
        };
    }

    /**
     * {@link NodeContext#write} for the simulation thread outside phases: writes the column itself,
     * since the slot arrays bound to the contexts may predate a table growth (spawns).
     */
    private void writeSlot(ValueType type, int slot, int row, double v) {
        switch (type) {
            case FLOAT:
                floatCols[slot].data()[row] = (float) v;
                break;
            case INT:
                intCols[slot].data()[row] = (int) v;
                break;
            default:
                boolCols[slot].data()[row] = (byte) (v != 0 ? 1 : 0);
        }
    }

    // ---- accessors ------------------------------------------------------------------------------

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

    boolean tracing() {
        return trace != null;
    }

    @Override
    public int agentCount() {
        return table.size();
    }

    /** Refreshes the slot arrays (table growth replaces column arrays); simulation thread. */
    private void refreshSlots() {
        for (int i = 0; i < floatCols.length; i++) {
            floatSlots[i] = floatCols[i].data();
        }
        for (int i = 0; i < intCols.length; i++) {
            intSlots[i] = intCols[i].data();
        }
        for (int i = 0; i < boolCols.length; i++) {
            boolSlots[i] = boolCols[i].data();
        }
    }

    void bindSlots(NodeContext ctx) {
        ctx.bindSlots(floatSlots, intSlots, boolSlots, table.agentIds().data());
    }

    int eventRow(int i) {
        return byChunkRow[i];
    }

    // ---- ticking --------------------------------------------------------------------------------

    /** One tick with the world clock's current tick number and dt. */
    public void tick() {
        tickAll(world.clock().tick(), world.clock().dt());
    }

    @Override
    public void tickAll(long tick, float dt) {
        currentTick = tick;
        currentDt = dt;
        prepare();
        distributeEvents();
        world.runPhase(table, tickKernel);
        finish();
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
        world.runPhase(table, startKernel);
        finish();
    }

    @Override
    public void stop(int agent, long tick) {
        currentTick = tick;
        prepare();
        if (agent == ALL) {
            world.runPhase(table, stopKernel);
        } else {
            int row = rowOf(agent);
            if (row >= 0) {
                runners[0].stopChunk(row, row + 1, outputs[row / world.chunkSize()], tick);
            }
        }
        finish();
    }

    private void prepare() {
        refreshSlots();
        int chunks = table.chunkCount(world.chunkSize());
        if (outputs.length < chunks) {
            ChunkOutput[] next = Arrays.copyOf(outputs, Math.max(chunks, outputs.length * 2));
            for (int i = outputs.length; i < next.length; i++) {
                next[i] = new ChunkOutput();
            }
            outputs = next;
        }
        for (int c = 0; c < chunks; c++) {
            outputs[c].clear();
        }
        int rows = Math.min(world.chunkSize(), Math.max(1, table.size()));
        for (ChunkRunner r : runners) {
            r.ensureCapacity(rows);
        }
    }

    /**
     * Drains the external queue (sorted by a stable key, since arrival order across threads is not
     * deterministic), then groups the queued events by chunk with a stable counting sort. Events for
     * agents that no longer exist are dropped and counted.
     */
    private void distributeEvents() {
        if (!external.isEmpty()) {
            drained.clear();
            ExternalEvent e;
            while ((e = external.poll()) != null) {
                drained.add(e);
            }
            drained.sort(null);
            for (ExternalEvent x : drained) {
                int tag = tree.tagId(x.tag());
                if (tag < 0) {
                    droppedEvents++;
                } else {
                    incoming.add(x.agentId(), tag, x.payload(), x.hasPayload());
                }
            }
            drained.clear();
        }
        int cs = world.chunkSize();
        int chunks = table.chunkCount(cs);
        if (chunkEventBegin.length < chunks + 1) {
            chunkEventBegin = new int[Math.max(chunks + 1, chunkEventBegin.length * 2)];
            cursor = new int[chunkEventBegin.length];
        }
        Arrays.fill(chunkEventBegin, 0, chunks + 1, 0);
        int n = incoming.size;
        if (incomingRow.length < n) {
            incomingRow = new int[Math.max(n, incomingRow.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            int row = rowOf(incoming.agent[i]);
            incomingRow[i] = row;
            if (row < 0) {
                droppedEvents++;
            } else {
                chunkEventBegin[row / cs + 1]++;
            }
        }
        for (int c = 1; c <= chunks; c++) {
            chunkEventBegin[c] += chunkEventBegin[c - 1];
        }
        int kept = chunkEventBegin[chunks];
        byChunk.clear();
        byChunk.ensureCapacity(kept);
        if (byChunkRow.length < kept) {
            byChunkRow = new int[Math.max(kept, byChunkRow.length * 2)];
        }
        System.arraycopy(chunkEventBegin, 0, cursor, 0, chunks);
        for (int i = 0; i < n; i++) {
            int row = incomingRow[i];
            if (row >= 0) {
                int at = cursor[row / cs]++;
                byChunk.agent[at] = incoming.agent[i];
                byChunk.tag[at] = incoming.tag[i];
                byChunk.payload[at] = incoming.payload[i];
                byChunk.hasPayload[at] = incoming.hasPayload[i];
                byChunkRow[at] = row;
            }
        }
        byChunk.size = kept;
        incoming.clear();
    }

    /** Merges chunk outputs in chunk order and delivers trace lines sorted by agent. */
    private void finish() {
        int chunks = table.chunkCount(world.chunkSize());
        for (int c = 0; c < chunks; c++) {
            incoming.addAll(outputs[c].carried);
        }
        for (int c = 0; c < chunks; c++) {
            incoming.addAll(outputs[c].toOthers);
        }
        if (trace != null) {
            deliverTrace(chunks);
        }
    }

    private void deliverTrace(int chunks) {
        List<int[]> keys = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            ChunkOutput o = outputs[c];
            for (int i = 0; i < o.traceLines.size(); i++) {
                keys.add(new int[] {o.traceAgents.data[i], lines.size()});
                lines.add(o.traceLines.get(i));
            }
        }
        keys.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
        for (int[] k : keys) {
            trace.line(k[0], lines.get(k[1]));
        }
    }

    private int rowOf(int agentId) {
        AgentHandle h = world.agent(agentId);
        return h == null || h.table() != table ? -1 : h.row();
    }

    // ---- inputs ---------------------------------------------------------------------------------

    @Override
    public void setParameter(int agent, String name, double value) {
        int p = tree.paramIndex(name);
        if (p < 0) {
            throw new IllegalArgumentException("tree '" + tree.name + "' has no parameter '" + name
                    + "'; its parameters are " + Arrays.toString(tree.paramName));
        }
        if (agent == ALL) {
            for (int r = 0; r < table.size(); r++) {
                writeSlot(tree.paramType[p], tree.paramSlot[p], r, value);
            }
        } else {
            int row = rowOf(agent);
            if (row < 0) {
                throw new IllegalArgumentException("no agent " + agent + " in table '" + table.name() + "'");
            }
            writeSlot(tree.paramType[p], tree.paramSlot[p], row, value);
        }
    }

    @Override
    public void sendEvent(int agent, String tag, float payload, boolean hasPayload) {
        int id = tree.tagId(tag);
        if (id < 0) {
            droppedEvents++;
            return;
        }
        if (agent == ALL) {
            int[] ids = table.agentIds().data();
            for (int r = 0; r < table.size(); r++) {
                incoming.add(ids[r], id, payload, hasPayload);
            }
        } else {
            incoming.add(agent, id, payload, hasPayload);
        }
    }

    /** An event for the next tick, queued from any thread. */
    public record ExternalEvent(int agentId, String tag, float payload, boolean hasPayload)
            implements Comparable<ExternalEvent> {
        @Override
        public int compareTo(ExternalEvent o) {
            int c = Integer.compare(agentId, o.agentId);
            if (c == 0) {
                c = tag.compareTo(o.tag);
            }
            if (c == 0) {
                c = Float.compare(payload, o.payload);
            }
            return c != 0 ? c : Boolean.compare(hasPayload, o.hasPayload);
        }
    }

    /**
     * The queue other threads (a server's network thread, say) offer events to; drained at the start
     * of the next tick and ordered by (agent, tag, payload), so the outcome does not depend on the
     * order in which threads raced.
     */
    public MpscUnboundedArrayQueue<ExternalEvent> externalEvents() {
        return external;
    }

    /** Events dropped because their agent was gone or their tag is used by no transition or node. */
    public long droppedEvents() {
        return droppedEvents;
    }

    @Override
    public void setTickPeriod(int agent, int period) {
        // TODO(issue 8): tick periods in the batched runtime
        if (period != 1) {
            throw new UnsupportedOperationException("tick periods are not implemented in the batched runtime yet");
        }
    }

    /**
     * {@link #setTickPeriod} by row, for hosts that compute periods in their own parallel phase.
     * THREADING: callable from a kernel of a phase run with {@code world.runPhase} on this system's
     * table, for rows of that kernel's chunk, or from the simulation thread between phases.
     */
    public void setTickPeriodOfRow(int row, int period) {
        // TODO(issue 8): tick periods in the batched runtime
        if (period != 1) {
            throw new UnsupportedOperationException("tick periods are not implemented in the batched runtime yet");
        }
    }

    @Override
    public int tickPeriod(int agent) {
        return 1;
    }

    @Override
    public int awakeLastTick() {
        int n = 0;
        for (int r = 0, size = table.size(); r < size; r++) {
            if (colRun.data()[r] == RunStatus.RUNNING) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void setTrace(TraceSink sink) {
        this.trace = sink;
        this.traceAgent = -1;
    }

    /** Traces only agent {@code agentId} (lines of other agents are not even formatted). */
    public void setTrace(TraceSink sink, int agentId) {
        this.trace = sink;
        this.traceAgent = agentId;
    }

    int traceAgent() {
        return traceAgent;
    }

    // ---- inspection -----------------------------------------------------------------------------

    @Override
    public byte treeStatus(int agent) {
        int row = rowOf(agent);
        return row < 0 ? RunStatus.UNSET : colRun.data()[row];
    }

    /** The agent's last active state, or -1. */
    public int activeState(int agent) {
        int row = rowOf(agent);
        return row < 0 ? -1 : colState.data()[row] - 1;
    }

    @Override
    public String activePath(int agent) {
        int s = activeState(agent);
        return s < 0 ? "" : tree.statePath[s];
    }

    /** The active last state of {@code row}, or -1 (for kernels and viewers). */
    public int activeStateOfRow(int row) {
        return colState.data()[row] - 1;
    }

    /** Counts running agents per active last state into {@code counts} (length >= stateCount). */
    public void countActiveStates(int[] counts) {
        Arrays.fill(counts, 0, tree.stateCount, 0);
        short[] st = colState.data();
        byte[] run = colRun.data();
        for (int r = 0, n = table.size(); r < n; r++) {
            if (run[r] == RunStatus.RUNNING) {
                counts[st[r] - 1]++;
            }
        }
    }

    /** The state-change count of an agent (Unreal's {@code StateChangeCount}). */
    public int stateChangeCount(int agent) {
        int row = rowOf(agent);
        return row < 0 ? 0 : colChanges.data()[row];
    }

    /** Bytes of per-agent data this system adds to each row (execution state plus slots). */
    public int bytesPerAgent() {
        int b = 2 + 1 + 1 + 2 + 4 + 2 + 4;
        return b + 4 * floatCols.length + 4 * intCols.length + boolCols.length;
    }

    /** Turns per-sub-phase timing on or off (off by default; costs a few nanoTime calls per chunk). */
    public void setTiming(boolean on) {
        this.timing = on;
    }

    /** Summed worker nanoseconds per sub-phase ({@link #PHASES}) since the last reset. */
    public long[] phaseNanos() {
        long[] sum = new long[PHASES.size()];
        for (long[] w : phaseNanos) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += w[i];
            }
        }
        return sum;
    }

    public void resetPhaseNanos() {
        for (long[] w : phaseNanos) {
            Arrays.fill(w, 0);
        }
    }

    /** All columns this system added to the table. */
    public List<Column> columns() {
        List<Column> cols = new ArrayList<>(List.of(colState, colRun, colLast, colGate, colGateTime, colFailedTask, colChanges));
        cols.addAll(Arrays.asList(floatCols));
        cols.addAll(Arrays.asList(intCols));
        cols.addAll(Arrays.asList(boolCols));
        return cols;
    }

    @Override
    public void close() {
        if (ownsWorld) {
            world.close();
        }
    }

    // ---- kernels --------------------------------------------------------------------------------

    private final class TickKernel implements ChunkKernel {
        @Override
        public void execute(Chunk c) {
            runners[c.worker()].tickChunk(c.begin(), c.end(), outputs[c.index()], currentTick, currentDt,
                    byChunk, chunkEventBegin[c.index()], chunkEventBegin[c.index() + 1],
                    timing ? phaseNanos[c.worker()] : null);
        }

        @Override
        public String kernelName() {
            return "StateTree tick (" + tree.name + ")";
        }
    }

    private final class StartKernel implements ChunkKernel {
        boolean all;

        @Override
        public void execute(Chunk c) {
            runners[c.worker()].startChunk(c.begin(), c.end(), all, outputs[c.index()], currentTick);
        }

        @Override
        public String kernelName() {
            return "StateTree start (" + tree.name + ")";
        }
    }

    private final class StopKernel implements ChunkKernel {
        @Override
        public void execute(Chunk c) {
            runners[c.worker()].stopChunk(c.begin(), c.end(), outputs[c.index()], currentTick);
        }

        @Override
        public String kernelName() {
            return "StateTree stop (" + tree.name + ")";
        }
    }
}
