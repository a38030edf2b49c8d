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
import java.util.List;

/**
 * The simulation world: agents with their hot data in SoA tables, a Dominion instance for the
 * host's sparse entities and the agents' optional cold data, a chunk executor for parallel phases,
 * a fixed-step clock and the seed of all randomness.
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
 * {@link #agent} returns a view for code that wants one.
 *
 * <p>Dominion ({@link #dominion()}) holds what does not fit dense columns: the host's sparse,
 * heterogeneous entities ({@link #createEntity}; the crowd's smart objects and threats) and, on
 * demand, an agent's cold data ({@link #entity}). Dominion stores components as heap objects and its
 * queries allocate, so hot per-agent data stays in the columns and kernels never iterate Dominion.
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
    private final WorldEntities entities;
    private final ChunkExecutor executor;
    private final FixedStepClock clock;
    private final List<SoaTable> tables = new ArrayList<>();
    private final CommandBuffer commands;
    private CommandBuffer[] chunkCommands = new CommandBuffer[0];

    /** Per agent id: table index + 1 (0: no live agent), row, generation. */
    private final IdIndex ids;
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
        this.entities = new WorldEntities();
        this.executor = new ChunkExecutor(b.workers, b.spinNanos);
        this.commands = new CommandBuffer(this);
        this.ids = new IdIndex(b.sparseIds);
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
                ids.setRow(agentIds[r], r);
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
        if (ids.sparse()) {
            throw new IllegalStateException("a world with sparse ids (World.Builder.sparseIds) places its agents "
                    + "(World.place), whose ids come from outside; it does not spawn");
        }
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        ids.link(id, (short) (tables.indexOf(table) + 1));
        addRow(table, id, init, arg);
    }

    /**
     * Spawns {@code n} agents now, on the simulation thread between phases, with the next
     * ids in a row (as that many {@link CommandBuffer#spawn spawns} would give them in a world with no
     * free id to reuse), in the row order {@code order[0 .. n)} says: the agent with id {@code first + order[k]}
     * gets the table's k-th new row, where {@code first} is the first of those ids (returned). So a host
     * whose agents' start data is a function of their id (a position drawn from it) can spawn them
     * already sorted by that data, where spawning them in id order and reordering the table after
     * would move every column. Ids are linked in id order first, so that no row waits for a scattered
     * id's entry to be read; then {@code init} initializes the rows on the world's workers, in
     * parallel chunks of rows: unlike a spawn's, it must write nothing but its own row.
     *
     * @return the first id
     * @throws IllegalArgumentException when {@code order[0 .. n)} is not a permutation of {@code 0 .. n-1}
     *                                  or the world would pass {@code maxAgents}
     * @throws IllegalStateException    when the world has sparse ids or free ids to reuse
     */
    public int spawnInOrder(SoaTable table, int[] order, int n, SpawnInitializer init, long arg) {
        if (n < 0 || n > order.length) {
            throw new IllegalArgumentException("n = " + n + " is not a count of order's " + order.length + " entries");
        }
        if (ids.sparse() || freeCount > 0) {
            throw new IllegalStateException("spawnInOrder gives the next ids in a row: a world with "
                    + (ids.sparse() ? "sparse ids places its agents (World.place)" : freeCount + " free ids to reuse spawns them one by one"));
        }
        if ((long) agentCount + n > maxAgents) {
            throw new IllegalArgumentException("agent capacity overflow: spawning " + n + " agents to " + agentCount
                    + " but maxAgents = " + maxAgents + " (raise World.Builder.maxAgents)");
        }
        long[] seen = new long[(n + 63) >>> 6];
        for (int k = 0; k < n; k++) {
            int o = order[k];
            if (o < 0 || o >= n || (seen[o >>> 6] & (1L << o)) != 0) {
                throw new IllegalArgumentException("order is not a permutation of 0.." + (n - 1) + ": entry " + k + " is " + o
                        + (o >= 0 && o < n ? ", given twice" : ""));
            }
            seen[o >>> 6] |= 1L << o;
        }
        final int first = nextId;
        final short link = (short) (tables.indexOf(table) + 1);
        ids.ensureDenseUpTo(first + n - 1);
        for (int i = 0; i < n; i++) {
            ids.link(first + i, link);
        }
        nextId = first + n;
        reserve(table, table.size() + n);
        final int firstRow = table.addRows(order, n, first); // the listeners hear of the rows (ids to rows)
        agentCount += n;
        executor.run(c -> {
            final int[] agents = table.agentIds().data();
            for (int row = firstRow + c.begin(), end = firstRow + c.end(); row < end; row++) {
                init.initialize(table, row, agents[row], arg);
            }
        }, n, SPAWN_CHUNK);
        return first;
    }

    /**
     * Grows {@code table} to hold at least {@code rows} rows (as {@link SoaTable#ensureCapacity} would),
     * its columns allocated on the workers, several at once: zeroing a large column is mostly the
     * operating system mapping fresh pages, which goes about twice as fast on two threads as on one.
     * Simulation thread, between phases.
     */
    public void reserve(SoaTable table, int rows) {
        final int next = table.capacityFor(rows);
        if (next == table.capacity()) {
            return;
        }
        executor.run(c -> {
            for (int i = c.begin(); i < c.end(); i++) {
                table.resizeColumn(i, next);
            }
        }, table.columnCount(), 1);
        table.grewTo(next);
    }

    /** Rows per chunk of {@link #spawnInOrder}'s parallel initialization. */
    private static final int SPAWN_CHUNK = 1 << 14;

    /** Gives agent {@code id}, linked to {@code table}, a new row of it and initializes it; returns the row. */
    private int addRow(SoaTable table, int id, SpawnInitializer init, long arg) {
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
        SoaTable t = tables.get(ids.table(id) - 1);
        t.remove(ids.row(id));
        ids.unlink(id);
        entities.dropAgent(id);
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
        ids.link(id, (short) (tables.indexOf(table) + 1)); // first: it may refuse the id
        nextId = Math.max(nextId, id + 1);
        generationChanging(id);
        ids.setGeneration(id, generation);
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
        if (!isLive(id) || ids.generation(id) != generation) {
            return false;
        }
        SoaTable t = tables.get(ids.table(id) - 1);
        for (DespawnListener l : despawnListeners) {
            l.despawning(t, ids.row(id), id);
        }
        unlink(id);
        generationChanging(id);
        ids.nextGeneration(id);
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, Math.max(16, freeIds.length * 2));
        }
        freeIds[freeCount++] = id;
        return true;
    }

    /**
     * Reorders the rows of {@code table} (new row i = old row {@code order[i]}, a permutation of the
     * live rows), each column gathered in parallel on the workers, handles on the simulation thread. A sync-point
     * operation: call between phases. Deterministic, allocation-free after the first call.
     */
    public void reorder(SoaTable table, int[] order) {
        reorderKernel.table = table;
        reorderKernel.order = order;
        try {
            // column by column, each gathered by all workers in row chunks: one spare array per
            // element type is enough (SoaTable.reorder), where gathering whole columns in parallel
            // would need one per column
            for (int c = 0, n = table.columnCount(); c < n; c++) {
                table.beginReorderColumn(c);
                executor.run(reorderKernel, table.size(), REORDER_CHUNK);
                table.endReorderColumn();
            }
        } finally {
            reorderKernel.table = null;
            reorderKernel.order = null;
        }
        table.finishReorder(order);
    }

    /** Rows per chunk of a column's parallel gather. */
    private static final int REORDER_CHUNK = 1 << 16;

    private final ReorderKernel reorderKernel = new ReorderKernel();

    /** Whether an agent with this id is alive. */
    public boolean isLive(int id) {
        return ids.isLive(id);
    }

    /** The row of the live agent with this id, or -1. Allocation-free; valid until the next sync point. */
    public int rowOf(int id) {
        return isLive(id) ? ids.row(id) : -1;
    }

    /** The table of the live agent with this id, or null. */
    public SoaTable tableOf(int id) {
        int t = ids.table(id);
        return t == 0 ? null : tables.get(t - 1);
    }

    /** A view of the live agent with this id (its current incarnation), or null. Allocates the view. */
    public AgentHandle agent(int id) {
        return isLive(id) ? new AgentHandle(this, id, ids.generation(id)) : null;
    }

    /**
     * The live agent's Dominion entity for optional cold data (a name, a profile: components attached
     * with {@code Entity.add}), or null when there is no such agent. Created on first use, here, with
     * an {@link AgentHandle} view of the agent as its first component; an entity costs heap that an
     * agent without cold data need not pay. It goes when the agent despawns or emigrates and when a
     * snapshot replaces the agents. Simulation thread, outside phases (a structural change).
     */
    public Entity entity(int id) {
        return isLive(id) ? entities.agent(this, id, ids.generation(id)) : null;
    }

    /**
     * Creates a Dominion entity in this world's instance with {@code components}: the host's sparse,
     * heterogeneous entities (the crowd's smart objects and threats), which the host finds again with
     * Dominion's queries. The world deletes it at {@link #close()}, if not before. Simulation thread,
     * outside phases (a structural change).
     */
    public Entity createEntity(Object... components) {
        return entities.create(components);
    }

    /**
     * Deletes an entity made by {@link #createEntity}; false when it is not one (or already gone).
     * Simulation thread, outside phases.
     */
    public boolean deleteEntity(Entity entity) {
        return entities.delete(entity);
    }

    /**
     * The generation the next (or current) incarnation of {@code id} has; with sparse ids
     * ({@link Builder#sparseIds}), 0 for an id that does not live here. Safe during phases.
     */
    public int generationOf(int id) {
        return ids.generation(id);
    }

    /** Snapshot support ({@link WorldSnapshot}): id state as {nextId, freeCount, skipped}, free ids, generations. */
    long[] idCounters() {
        return new long[] {nextId, freeCount, skippedCommands};
    }

    int[] freeIds() {
        return Arrays.copyOf(freeIds, freeCount);
    }

    /** Whether this world's ids are sparse ({@link Builder#sparseIds}). */
    public boolean sparseIds() {
        return ids.sparse();
    }

    /** The bytes the id index takes: 16 per id up to the largest (dense), 28 to 56 per agent living here (sparse). */
    public long idIndexBytes() {
        return ids.bytes();
    }

    /**
     * Snapshot support: dense ids, the generation of every id below the next fresh one; sparse ids,
     * the generation of each row's agent of {@code table} (where all agents live), in row order.
     */
    int[] generations(SoaTable table) {
        if (!ids.sparse()) {
            return ids.generations(nextId);
        }
        int[] agentIds = table.agentIds().data();
        int[] g = new int[table.size()];
        for (int r = 0; r < g.length; r++) {
            g[r] = ids.generation(agentIds[r]);
        }
        return g;
    }

    /**
     * Snapshot support: replaces the agent ids with a snapshot's, every live agent being one of
     * {@code agentIds} in {@code table} (its row the index; {@code gens} as {@link #generations}
     * gives them); Dominion entities are dropped (created again on demand). Called before the
     * table's rows are restored.
     */
    void restoreIds(int next, int[] gens, int[] free, long skipped, SoaTable table, int[] agentIds, int rows) {
        generationChanging(-1);
        ids.restore(next, gens, (short) (tables.indexOf(table) + 1), agentIds, rows);
        freeIds = Arrays.copyOf(free, Math.max(16, free.length));
        freeCount = free.length;
        nextId = next;
        skippedCommands = skipped;
        agentCount = rows;
        entities.dropAgents();
    }

    /** Number of live agents. */
    public int agentCount() {
        return agentCount;
    }

    /** Despawn commands skipped because their agent was already gone. */
    public long skippedCommands() {
        return skippedCommands;
    }

    /**
     * This world's Dominion instance, for queries ({@code findEntitiesWith},
     * {@code findCompositionsWith}) and component changes. Create and delete entities through
     * {@link #createEntity} / {@link #deleteEntity} (or {@link #entity}): the instance is reused by a
     * later world once this one closes (see {@code WorldEntities}), and only the entities the world
     * knows of are deleted then. Its queries allocate (a map of compositions, an iterator, a record
     * per entity): no steady tick should run one. THREADING: simulation thread only, outside phases.
     */
    public Dominion dominion() {
        return entities.dominion;
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

    /** Hash of every table's primitive columns, in table order: equal simulations hash equal. */
    public long contentHash() {
        long h = 0xCBF29CE484222325L;
        for (SoaTable t : tables) {
            h = (h ^ t.contentHash()) * 0x100000001B3L;
        }
        return h;
    }

    /**
     * Stops the workers, deletes every entity the world created and hands the emptied Dominion
     * instance back for reuse by later worlds (see {@code WorldEntities}). Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        executor.close();
        entities.close();
        ids.clear();
        agentCount = 0;
    }

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

    /**
     * Something that holds agent ids with the generation {@link #generationOf} will give them, and
     * must read it before it changes: called on the simulation thread just before a despawn or a
     * {@link #place} gives an id another generation ({@code agentId}), or a world snapshot is
     * restored (-1: every id).
     */
    @FunctionalInterface
    public interface GenerationListener {
        void generationChanging(int agentId);
    }

    private GenerationListener[] generationListeners = new GenerationListener[0];

    /** Registers {@code l} for every later change of an id's generation. */
    public void addGenerationListener(GenerationListener l) {
        generationListeners = Arrays.copyOf(generationListeners, generationListeners.length + 1);
        generationListeners[generationListeners.length - 1] = l;
    }

    private void generationChanging(int id) {
        for (GenerationListener l : generationListeners) {
            l.generationChanging(id);
        }
    }

    /** Configuration of a {@link World}; every setter validates its argument. */
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
        private boolean sparseIds;

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

        /**
         * Whether the id index holds only the agents that live here (a hash table, 28 to 56 bytes per
         * agent) instead of dense tables over every id up to the largest (12 bytes per id): for a
         * world whose agents are {@link World#place placed} from a much larger id space, such as one
         * spatial region of a simulation. Such a world does not spawn, and forgets an id's generation
         * when the agent leaves. Default false.
         */
        public Builder sparseIds(boolean sparseIds) {
            this.sparseIds = sparseIds;
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
