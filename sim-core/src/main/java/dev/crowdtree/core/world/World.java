package dev.crowdtree.core.world;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkExecutor;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.time.FixedStepClock;
import dev.crowdtree.core.util.Checks;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The simulation world: agents as Dominion entities, their hot data in SoA tables, a chunk executor
 * for parallel phases, a fixed-step clock and the seed of all randomness.
 *
 * <p>Lifecycle of a tick: the simulation thread runs phases with {@link #runPhase}; kernels record
 * structural changes into the buffer of their chunk ({@link #commands(Chunk)}); then
 * {@link #sync()} applies the simulation thread's buffer and the chunk buffers in chunk order. Only
 * {@code sync()} touches Dominion and the tables' structure, so workers never call Dominion (whose
 * structural changes are not thread-safe) and results do not depend on the number of workers.
 *
 * <p>Agent ids are small dense integers taken from a LIFO free list (deterministic); a despawned
 * id is reused by a later spawn with a higher generation. Where an agent lives is kept in arrays by
 * id (its table and row, updated through each table's {@link SoaTable.RowListener} when rows move),
 * not in per-agent objects: {@link #rowOf} and {@link #tableOf} are allocation-free, and
 * {@link #agent} returns a view for code that wants one. An agent's Dominion entity exists only once
 * {@link #entity} asked for it (cold data).
 *
 * <p>THREADING: every method is for the simulation thread, except {@link #commands(Chunk)},
 * {@link #generationOf(int)}, {@link #seed()} and the getters of immutable configuration, which
 * kernels may call during a phase.
 */
public final class World implements AutoCloseable {
    private final int chunkSize;
    private final int maxAgents;
    private final int initialCapacity;
    private final long seed;
    private final Dominion dominion;
    private final ChunkExecutor executor;
    private final FixedStepClock clock;
    private final List<SoaTable> tables = new ArrayList<>();
    private final CommandBuffer commands;
    private CommandBuffer[] chunkCommands = new CommandBuffer[0];

    /** Per agent id: table index + 1 (0: no live agent), row, generation; Dominion entities once created. */
    private short[] tableById = new short[0];
    private int[] rowById = new int[0];
    private int[] generations = new int[0];
    private final Map<Integer, Entity> entities = new HashMap<>();
    private int[] freeIds = new int[0];
    private int freeCount;
    private int nextId;
    private int agentCount;
    private long skippedCommands;
    private boolean closed;

    private World(Builder b) {
        this.chunkSize = b.chunkSize;
        this.maxAgents = b.maxAgents;
        this.initialCapacity = b.resolvedInitialCapacity();
        this.seed = b.seed;
        this.clock = new FixedStepClock(b.dt);
        this.dominion = createDominion();
        this.executor = new ChunkExecutor(b.workers, b.spinNanos);
        this.commands = new CommandBuffer(this);
    }

    /**
     * Dominion instances of closed worlds, emptied, ready for reuse. Dominion 0.9.0 registers a
     * logging level in a fixed static array of 1024 entries on every {@code Dominion.create()}, so a
     * JVM can create at most about a thousand of them; reusing them bounds the number created by the
     * number of worlds open at the same time.
     */
    private static final ConcurrentLinkedQueue<Dominion> IDLE_DOMINIONS = new ConcurrentLinkedQueue<>();

    /**
     * Dominion prints a configuration banner at INFO level for every instance; keep it quiet unless
     * the user asked for a level with the system properties Dominion documents.
     */
    private static Dominion createDominion() {
        Dominion idle = IDLE_DOMINIONS.poll();
        if (idle != null) {
            return idle;
        }
        String name = "crowdtree";
        for (String key : new String[] {"dominion.logging-level", "dominion." + name + ".logging-level"}) {
            if (System.getProperty(key) == null) {
                System.setProperty(key, "WARNING");
            }
        }
        if (System.getProperty("dominion.show-banner") == null) {
            System.setProperty("dominion.show-banner", "false");
        }
        return Dominion.create(name);
    }

    /** A builder with defaults: all processors, chunks of 4096 rows, dt 1/30 s, seed 1. */
    public static Builder builder() {
        return new Builder();
    }

    /** Creates an empty table whose capacity is bounded by {@code maxAgents}. */
    public SoaTable createTable(String name) {
        for (SoaTable t : tables) {
            if (t.name().equals(name)) {
                throw new IllegalArgumentException("world already has a table named '" + name + "'");
            }
        }
        if (tables.size() == Short.MAX_VALUE) {
            throw new IllegalArgumentException("a world holds at most " + Short.MAX_VALUE + " tables");
        }
        SoaTable t = new SoaTable(name, initialCapacity, maxAgents);
        tables.add(t);
        t.addRowListener((from, to) -> {
            // rows added or moved (swap-remove, reorder): the agents now in them live there
            int[] agentIds = t.agentIds().data();
            for (int r = from, end = Math.min(to, t.size()); r < end; r++) {
                rowById[agentIds[r]] = r;
            }
        });
        return t;
    }

    public List<SoaTable> tables() {
        return Collections.unmodifiableList(tables);
    }

    /** The simulation thread's command buffer. */
    public CommandBuffer commands() {
        return commands;
    }

    /**
     * The command buffer of {@code chunk}, for kernels. Valid for chunks of phases run through
     * {@link #runPhase}.
     */
    public CommandBuffer commands(Chunk chunk) {
        return chunkCommands[chunk.index()];
    }

    /**
     * Runs {@code kernel} over all rows of {@code table} in chunks, in parallel, and waits.
     *
     * @throws dev.crowdtree.core.schedule.ChunkExecutionException if the kernel threw
     */
    public void runPhase(SoaTable table, ChunkKernel kernel) {
        ensureChunkBuffers(table.chunkCount(chunkSize));
        executor.run(kernel, table.size(), chunkSize);
    }

    private void ensureChunkBuffers(int count) {
        if (chunkCommands.length < count) {
            CommandBuffer[] next = Arrays.copyOf(chunkCommands, Math.max(count, chunkCommands.length * 2));
            for (int i = chunkCommands.length; i < next.length; i++) {
                next[i] = new CommandBuffer(this);
            }
            chunkCommands = next;
        }
    }

    /**
     * The sync point: applies the simulation thread's commands, then every chunk's commands in
     * chunk order, and clears the buffers.
     *
     * @return the number of commands applied (skipped ones not counted)
     */
    public int sync() {
        int applied = apply(commands);
        for (CommandBuffer b : chunkCommands) {
            if (b.size > 0) {
                applied += apply(b);
            }
        }
        return applied;
    }

    private int apply(CommandBuffer b) {
        int applied = 0;
        try {
            for (int i = 0; i < b.size; i++) {
                if (b.ops[i] == CommandBuffer.SPAWN) {
                    spawn((SoaTable) b.tables[i], (SpawnInitializer) b.inits[i], b.longs[i]);
                    applied++;
                } else if (despawn(b.ints[i], (int) b.longs[i])) {
                    applied++;
                } else {
                    skippedCommands++;
                }
            }
        } finally {
            b.clear();
        }
        return applied;
    }

    private void spawn(SoaTable table, SpawnInitializer init, long arg) {
        if (agentCount >= maxAgents) {
            throw new IllegalArgumentException("agent capacity overflow: spawning agent " + (agentCount + 1)
                    + " but maxAgents = " + maxAgents + "; valid range is 0.." + maxAgents
                    + " agents (raise World.Builder.maxAgents)");
        }
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        ensureIdCapacity(id);
        addRow(table, id, init, arg);
    }

    /** Grows the per-id arrays to hold {@code id}. */
    private void ensureIdCapacity(int id) {
        if (id >= rowById.length) {
            int n = Math.max(16, Math.max(id + 1, rowById.length * 2));
            tableById = Arrays.copyOf(tableById, n);
            rowById = Arrays.copyOf(rowById, n);
            generations = Arrays.copyOf(generations, n);
        }
    }

    /** Gives live agent {@code id} a new row of {@code table} and initializes it; returns the row. */
    private int addRow(SoaTable table, int id, SpawnInitializer init, long arg) {
        tableById[id] = (short) (tables.indexOf(table) + 1);
        int row = table.add(id); // the table's listener records the row
        agentCount++;
        init.initialize(table, row, id, arg);
        return row;
    }

    /**
     * Takes live agent {@code id} out of its table (swap-remove) and drops its Dominion entity;
     * returns the table. Its generation and id are the caller's business.
     */
    private SoaTable unlink(int id) {
        SoaTable t = tables.get(tableById[id] - 1);
        tableById[id] = 0;
        t.remove(rowById[id]);
        rowById[id] = -1;
        Entity e = entities.remove(id);
        if (e != null) {
            dominion.deleteEntity(e);
        }
        agentCount--;
        return t;
    }

    /**
     * Places agent {@code id} (incarnation {@code generation}) in {@code table} now, on the
     * simulation thread between phases, and runs {@code init} on its zeroed row: the way an agent
     * enters a world that does not hand out ids itself, a spatial region whose agents come from the
     * whole simulation (initial placement, or a migrant from a neighbouring region). Such a world
     * must not also {@link CommandBuffer#spawn spawn}, whose ids would collide with placed ones.
     *
     * @return the agent's row
     * @throws IllegalArgumentException when {@code id} is negative or already lives here, or the
     *                                  world is at {@code maxAgents}
     */
    public int place(SoaTable table, int id, int generation, SpawnInitializer init, long arg) {
        if (id < 0 || isLive(id)) {
            throw new IllegalArgumentException("agent " + id + " cannot be placed: "
                    + (id < 0 ? "ids are 0 or more" : "it already lives in this world"));
        }
        if (agentCount >= maxAgents) {
            throw new IllegalArgumentException("agent capacity overflow: placing agent " + id + " but maxAgents = "
                    + maxAgents + " (raise World.Builder.maxAgents)");
        }
        ensureIdCapacity(id);
        nextId = Math.max(nextId, id + 1);
        generations[id] = generation;
        return addRow(table, id, init, arg);
    }

    /**
     * Removes live agent {@code id} from this world without despawning it: no despawn listener hears
     * of it (its tree is not stopped) and its generation stays, because the agent lives on in another
     * world (it migrated to a neighbouring region). Read its row first. Simulation thread, between
     * phases.
     *
     * @throws IllegalArgumentException when no agent {@code id} lives here
     */
    public void emigrate(int id) {
        if (!isLive(id)) {
            throw new IllegalArgumentException("agent " + id + " does not live in this world");
        }
        unlink(id);
    }

    private boolean despawn(int id, int generation) {
        if (!isLive(id) || generations[id] != generation) {
            return false;
        }
        SoaTable t = tables.get(tableById[id] - 1);
        for (DespawnListener l : despawnListeners) {
            l.despawning(t, rowById[id], id);
        }
        unlink(id);
        generations[id]++;
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, Math.max(16, freeIds.length * 2));
        }
        freeIds[freeCount++] = id;
        return true;
    }

    /**
     * Reorders the rows of {@code table} (new row i = old row {@code order[i]}, a permutation of the
     * live rows), columns in parallel on the workers, handles on the simulation thread. A sync-point
     * operation: call between phases. Deterministic, allocation-free after the first call.
     */
    public void reorder(SoaTable table, int[] order) {
        reorderKernel.table = table;
        reorderKernel.order = order;
        try {
            executor.run(reorderKernel, table.columnCount(), 1);
        } finally {
            reorderKernel.table = null;
            reorderKernel.order = null;
        }
        table.finishReorder(order);
    }

    private final ReorderKernel reorderKernel = new ReorderKernel();

    /** One chunk = one column. */
    private static final class ReorderKernel implements ChunkKernel {
        SoaTable table;
        int[] order;

        @Override
        public void execute(Chunk chunk) {
            table.reorderColumn(chunk.index(), order);
        }

        @Override
        public String kernelName() {
            return "reorder " + table.name();
        }
    }

    /** Whether an agent with this id is alive. */
    public boolean isLive(int id) {
        return id >= 0 && id < tableById.length && tableById[id] != 0;
    }

    /** The row of the live agent with this id, or -1. Allocation-free; valid until the next sync point. */
    public int rowOf(int id) {
        return isLive(id) ? rowById[id] : -1;
    }

    /** The table of the live agent with this id, or null. */
    public SoaTable tableOf(int id) {
        return isLive(id) ? tables.get(tableById[id] - 1) : null;
    }

    /** A view of the live agent with this id (its current incarnation), or null. Allocates the view. */
    public AgentHandle agent(int id) {
        return isLive(id) ? new AgentHandle(this, id, generations[id]) : null;
    }

    /**
     * The live agent's Dominion entity, or null when there is no such agent. Entities are created on
     * first use, here: Dominion holds cold data only, and an entity costs about 40 bytes of heap that
     * an agent without cold data need not pay. Its component is an {@link AgentHandle} view of the
     * agent. Simulation thread, outside phases (a structural change).
     */
    public Entity entity(int id) {
        if (!isLive(id)) {
            return null;
        }
        Entity e = entities.get(id);
        if (e == null) {
            e = dominion.createEntity(new AgentHandle(this, id, generations[id]));
            entities.put(id, e);
        }
        return e;
    }

    /** The generation the next (or current) incarnation of {@code id} has. Safe during phases. */
    public int generationOf(int id) {
        return id >= 0 && id < generations.length ? generations[id] : 0;
    }

    /** Snapshot support ({@link WorldSnapshot}): id state as {nextId, freeCount, skipped}, free ids, generations. */
    long[] idCounters() {
        return new long[] {nextId, freeCount, skippedCommands};
    }

    int[] freeIds() {
        return Arrays.copyOf(freeIds, freeCount);
    }

    int[] generations() {
        return Arrays.copyOf(generations, nextId);
    }

    /**
     * Snapshot support: replaces the agent ids with a snapshot's, every live agent being one of
     * {@code ids} in {@code table} (its row the index); Dominion entities are dropped (created again
     * on demand). Called before the table's rows are restored.
     */
    void restoreIds(int next, int[] gens, int[] free, long skipped, SoaTable table, int[] ids, int rows) {
        int n = Math.max(16, next);
        tableById = new short[n];
        rowById = new int[n];
        Arrays.fill(rowById, -1);
        generations = Arrays.copyOf(gens, n);
        freeIds = Arrays.copyOf(free, Math.max(16, free.length));
        freeCount = free.length;
        nextId = next;
        skippedCommands = skipped;
        short t = (short) (tables.indexOf(table) + 1);
        for (int r = 0; r < rows; r++) {
            tableById[ids[r]] = t;
            rowById[ids[r]] = r;
        }
        agentCount = rows;
        for (Entity e : entities.values()) {
            dominion.deleteEntity(e);
        }
        entities.clear();
    }

    /** Number of live agents. */
    public int agentCount() {
        return agentCount;
    }

    /** Despawn commands skipped because their agent was already gone. */
    public long skippedCommands() {
        return skippedCommands;
    }

    public Dominion dominion() {
        return dominion;
    }

    public ChunkExecutor executor() {
        return executor;
    }

    public FixedStepClock clock() {
        return clock;
    }

    public long seed() {
        return seed;
    }

    public int chunkSize() {
        return chunkSize;
    }

    public int workers() {
        return executor.workers();
    }

    public int maxAgents() {
        return maxAgents;
    }

    /** Hash of every table's primitive columns, in table order: equal simulations hash equal. */
    /**
     * A hash of every table's content by agent ({@link SoaTable#contentHashByAgent}), summed over
     * the tables: independent of row order and of which table holds an agent, as long as the tables
     * have the same columns (a world split into regions hashes like the whole).
     */
    public long contentHashByAgent() {
        long h = 0;
        for (SoaTable t : tables) {
            h += t.contentHashByAgent();
        }
        return h;
    }

    public long contentHash() {
        long h = 0xCBF29CE484222325L;
        for (SoaTable t : tables) {
            h = (h ^ t.contentHash()) * 0x100000001B3L;
        }
        return h;
    }

    /**
     * Stops the workers and hands the Dominion instance, emptied of this world's entities, back for
     * reuse by later worlds (see {@link #IDLE_DOMINIONS}). Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        executor.close();
        for (Entity e : entities.values()) {
            dominion.deleteEntity(e);
        }
        entities.clear();
        Arrays.fill(tableById, (short) 0);
        agentCount = 0;
        IDLE_DOMINIONS.offer(dominion);
    }

    /** Configuration of a {@link World}; every setter validates its argument. */
    /**
     * Something that keeps state for agents and must act before one goes (a StateTree runtime
     * runs the agent's ExitState). Called on the simulation thread, at the sync point that applies
     * the despawn, while the agent still has its row and id.
     */
    @FunctionalInterface
    public interface DespawnListener {
        void despawning(SoaTable table, int row, int agentId);
    }

    private DespawnListener[] despawnListeners = new DespawnListener[0];

    /** Registers {@code l} for every later despawn. */
    public void addDespawnListener(DespawnListener l) {
        despawnListeners = Arrays.copyOf(despawnListeners, despawnListeners.length + 1);
        despawnListeners[despawnListeners.length - 1] = l;
    }

    public static final class Builder {
        /** Rows a table allocates up front unless told otherwise (at most maxAgents). */
        private static final int DEFAULT_INITIAL_CAPACITY = 1024;

        private int workers = Runtime.getRuntime().availableProcessors();
        private int chunkSize = 4096;
        private int maxAgents = 1 << 24;
        /** -1: not set, {@link #resolvedInitialCapacity()} decides. */
        private int initialCapacity = -1;
        private long seed = 1;
        private float dt = 1f / 30f;
        private long spinNanos = ChunkExecutor.DEFAULT_SPIN_NANOS;

        private Builder() {
        }

        /** Worker threads including the simulation thread, 1..256. Default: available processors. */
        public Builder workers(int workers) {
            this.workers = Checks.inRange("workers", workers, 1, 256);
            return this;
        }

        /** Rows per chunk, a power of two in 1..16777216. Default 4096. */
        public Builder chunkSize(int chunkSize) {
            this.chunkSize = Checks.powerOfTwo("chunkSize", chunkSize, 1, 1 << 24);
            return this;
        }

        /** The most agents the world may hold, 1..1073741824. Default 16777216. */
        public Builder maxAgents(int maxAgents) {
            this.maxAgents = Checks.inRange("maxAgents", maxAgents, 1, SoaTable.MAX_CAPACITY);
            return this;
        }

        /** Rows each table allocates up front, 0..maxAgents. Default min(1024, maxAgents). */
        public Builder initialCapacity(int initialCapacity) {
            this.initialCapacity = Checks.inRange("initialCapacity", initialCapacity, 0, SoaTable.MAX_CAPACITY);
            return this;
        }

        /** Seed of every random draw. Default 1. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Seconds per fixed step, finite and > 0. Default 1/30. */
        public Builder dt(float dt) {
            this.dt = Checks.positiveFinite("dt", dt);
            return this;
        }

        /** How long idle workers spin before parking, 0..10 ms in ns. */
        public Builder spinNanos(long spinNanos) {
            this.spinNanos = spinNanos;
            return this;
        }

        /** The initial capacity set, or by default min(1024, maxAgents), so that a small world needs no setting. */
        private int resolvedInitialCapacity() {
            return initialCapacity < 0 ? Math.min(DEFAULT_INITIAL_CAPACITY, maxAgents) : initialCapacity;
        }

        /**
         * The world.
         *
         * @throws IllegalArgumentException when an explicit {@link #initialCapacity} exceeds {@link #maxAgents}
         */
        public World build() {
            if (resolvedInitialCapacity() > maxAgents) {
                throw new IllegalArgumentException("initialCapacity = " + initialCapacity
                        + " is out of range; valid range is 0.." + maxAgents + " (maxAgents)");
            }
            return new World(this);
        }
    }
}
