package dev.crowdtree.statetree.model;

import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.util.Checks;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link ModelDefinition}: a world with one agent table holding the model's columns, its
 * tree on the batched StateTree runtime, and its host systems on the world's chunk executor.
 *
 * <p>Built ({@link #create}): the table with the model's columns; the tree's own host columns that
 * the model does not declare, with the standalone values of the node providers
 * ({@link NodeRegistry#standaloneColumn}); the runtime; the externals (the model's, else the
 * providers' standalone ones); one instance of every host system, bound; the agents spawned, each
 * column set by its {@link ColumnInit} (agent {@code i} is the {@code i}-th spawned), and their trees
 * started at tick 0.
 *
 * <p>One tick ({@link #tick}): the {@link Neighbourhood} (when the model reads other agents), the
 * systems before the trees, level of detail (when on), the StateTree phase, the systems after the
 * trees, the world's sync point. The phases' names ({@link #phases}) are the systems' names,
 * {@code lod}, {@code statetree} and {@code sync}. Same seed and settings, same bits, on any number
 * of workers (the systems' contract: {@link HostSystem}); a steady tick allocates nothing of its own.
 *
 * <p>The world hash ({@link #contentHash}) is by agent id ({@code SoaTable.contentHashByAgent}) and
 * mixes in the systems' own state, so it does not depend on row order, nor on which region of a
 * split world holds which agent.
 *
 * <p>THREADING: one thread drives a model world (the simulation thread).
 */
public final class ModelWorld implements AutoCloseable {
    /** The snapshot kind of a model world (the tools' snapshots of it: {@link #saveState} and the runtime's). */
    public static final String SNAPSHOT_KIND = "model";
    /** Agents spawned per {@code World.sync} while the world is built. */
    private static final int SPAWN_BATCH = 1 << 16;

    /** Which agents a world holds (a region of a split world holds those whose start position falls in it). */
    @FunctionalInterface
    public interface AgentFilter {
        /** Whether the world holds agent {@code agent}, which starts at ({@code x}, {@code y}) (NaN without positions). */
        boolean holds(int agent, float x, float y);
    }

    /**
     * How a world is built: agents, seed, workers, seconds per tick, rows per chunk, LOD bands (null:
     * off) and the observer, and, for a region of a split world, which agents it holds (null: all).
     */
    public record Settings(int agents, long seed, int workers, float dt, int chunkSize, LodBands lod, float observerX,
                           float observerY, AgentFilter holds) {
        /** Checks the values, naming the setting, the value and the valid range. */
        public Settings {
            Checks.inRange("agents", agents, 1, 16_000_000);
            Checks.inRange("workers", workers, 1, 256);
            Checks.positiveFinite("dt", dt);
            Checks.inRange("chunkSize", chunkSize, 1, 1 << 15);
            if (!Float.isFinite(observerX) || !Float.isFinite(observerY)) {
                throw new IllegalArgumentException("observer = " + observerX + "," + observerY + " must be finite");
            }
        }

        /** The model's default agents and dt, seed 1, every processor, chunks of 4096 rows, no LOD, the observer at the world's centre. */
        public static Settings of(ModelDefinition def) {
            return new Settings(def.defaultAgents(), 1, Runtime.getRuntime().availableProcessors(), def.defaultDt(), 4096,
                    null, def.width() / 2, def.height() / 2, null);
        }

        public Settings withAgents(int n) {
            return new Settings(n, seed, workers, dt, chunkSize, lod, observerX, observerY, holds);
        }

        public Settings withSeed(long s) {
            return new Settings(agents, s, workers, dt, chunkSize, lod, observerX, observerY, holds);
        }

        public Settings withWorkers(int w) {
            return new Settings(agents, seed, w, dt, chunkSize, lod, observerX, observerY, holds);
        }

        public Settings withDt(float d) {
            return new Settings(agents, seed, workers, d, chunkSize, lod, observerX, observerY, holds);
        }

        public Settings withChunkSize(int rows) {
            return new Settings(agents, seed, workers, dt, rows, lod, observerX, observerY, holds);
        }

        /** LOD by {@code bands} (null: off) around the observer ({@code x}, {@code y}). */
        public Settings withLod(LodBands bands, float x, float y) {
            return new Settings(agents, seed, workers, dt, chunkSize, bands, x, y, holds);
        }

        /** A region of a split world: the agents {@code filter} holds, with a sparse id index. */
        public Settings holding(AgentFilter filter) {
            return new Settings(agents, seed, workers, dt, chunkSize, lod, observerX, observerY, filter);
        }
    }

    private final ModelDefinition def;
    private final CompiledStateTree tree;
    private final Settings settings;
    private final World world;
    private final SoaTable table;
    private final StateTreeSystem system;
    private final Map<String, Object> externals = new LinkedHashMap<>();
    private final Neighbourhood neighbourhood;
    private final ModelTick tickInfo;
    private final HostSystem[] systems;
    private final HostSystemSpec[] specs;
    private final ModelKernels.SystemKernel[] kernels;
    private final int beforeCount;
    private final String[] phases;
    private final TickMetrics metrics;
    private final ModelKernels.LodKernel lodKernel;
    private final FloatColumn xColumn;
    private final FloatColumn yColumn;
    private long tick;
    private float observerX;
    private float observerY;

    private ModelWorld(ModelDefinition def, CompiledStateTree tree, NodeRegistry registry, Settings s) {
        this.def = def;
        this.tree = tree;
        this.settings = s;
        if (s.lod() != null && !def.allowsLod()) {
            throw new IllegalArgumentException("model '" + def.name() + "' does not allow LOD"
                    + (def.hasPositions() ? "" : " (it has no positions to measure a distance from)"));
        }
        int capacity = s.holds() == null ? s.agents() : Math.min(s.agents(), s.agents() / 4 + 1024);
        this.world = World.builder().workers(s.workers()).chunkSize(s.chunkSize()).seed(s.seed()).dt(s.dt())
                .maxAgents(s.agents()).initialCapacity(capacity).sparseIds(s.holds() != null).build();
        boolean ok = false;
        try {
            this.table = world.createTable("agents");
            List<Column> modelColumns = new ArrayList<>();
            for (ModelColumn c : def.columns()) {
                modelColumns.add(new HostColumn(c.name(), c.type(), HostColumn.Access.WRITE).addTo(table));
            }
            def.check(tree, registry);
            List<Column> extra = new ArrayList<>();
            List<HostColumn> extraSpecs = new ArrayList<>();
            for (HostColumn c : tree.hostColumns) {
                if (def.column(c.name()) == null) {
                    extra.add(c.addTo(table));
                    extraSpecs.add(c);
                }
            }
            double[] extraValues = new double[extra.size()];
            for (int i = 0; i < extraValues.length; i++) {
                extraValues[i] = registry.standaloneColumnValue(extraSpecs.get(i).name());
            }
            this.xColumn = def.hasPositions() ? (FloatColumn) table.column(def.xColumn()) : null;
            this.yColumn = def.hasPositions() ? (FloatColumn) table.column(def.yColumn()) : null;
            ByteColumn band = s.lod() == null ? null : table.addByte("lodBand");
            this.system = new StateTreeSystem(world, table, tree);
            for (ModelDefinition.External e : def.externals()) {
                externals.put(e.name(), e.create());
            }
            for (External<?> e : tree.externals) {
                Object value = externals.get(e.name());
                if (value == null) {
                    value = registry.standaloneExternal(e.name()).create();
                }
                system.bindExternal(e.name(), value);
            }
            if (def.reach() > 0) {
                List<HostColumn.Type> types = new ArrayList<>();
                for (String c : def.shared()) {
                    types.add(def.column(c).type());
                }
                this.neighbourhood = new Neighbourhood(def.xColumn(), def.yColumn(), def.width(), def.height(),
                        def.reach(), s.agents(), def.shared(), types); // the whole world's count: a region's cells are the world's
            } else {
                this.neighbourhood = null;
            }
            this.tickInfo = new ModelTick(system, s.seed());
            List<HostSystemSpec> all = new ArrayList<>(def.before());
            all.addAll(def.after());
            this.beforeCount = def.before().size();
            this.specs = all.toArray(new HostSystemSpec[0]);
            this.systems = new HostSystem[specs.length];
            this.kernels = new ModelKernels.SystemKernel[specs.length];
            for (int i = 0; i < specs.length; i++) {
                systems[i] = specs[i].create();
                systems[i].bind(new SystemBinding(specs[i], table, externals, neighbourhood, s.workers()));
                kernels[i] = ModelKernels.overridesExecute(systems[i]) ? new ModelKernels.SystemKernel(specs[i].name(), systems[i], tickInfo) : null;
            }
            this.lodKernel = band == null ? null : new ModelKernels.LodKernel(s.lod(), band, system, xColumn, yColumn);
            List<String> names = new ArrayList<>();
            if (neighbourhood != null) {
                names.add("neighbourhood");
            }
            for (int i = 0; i < beforeCount; i++) {
                names.add(specs[i].name());
            }
            if (lodKernel != null) {
                names.add("lod");
            }
            names.add("statetree");
            for (int i = beforeCount; i < specs.length; i++) {
                names.add(specs[i].name());
            }
            names.add("sync");
            this.phases = names.toArray(new String[0]);
            this.metrics = new TickMetrics(phases);
            setObserver(s.observerX(), s.observerY());
            spawn(modelColumns, extra, extraSpecs, extraValues);
            system.startAll(0);
            ok = true;
        } finally {
            if (!ok) {
                world.close();
            }
        }
    }

    /**
     * Builds the world of {@code def} running {@code tree} (compiled with a registry holding the
     * model's node types), as {@code settings} say; {@code registry} gives the standalone values of
     * the tree's host columns and externals that the model does not declare.
     *
     * @throws IllegalArgumentException naming what is wrong: a tree column the model declares with
     *                                  another type, a column or external nothing gives, LOD on a
     *                                  model without it, a system that fails to bind
     */
    public static ModelWorld create(ModelDefinition def, CompiledStateTree tree, NodeRegistry registry, Settings settings) {
        return new ModelWorld(def, tree, registry, settings);
    }

    /** Spawns the agents (all, or those {@code settings.holds()} keeps, with their whole-world ids). */
    private void spawn(List<Column> modelColumns, List<Column> extra, List<HostColumn> extraSpecs, double[] extraValues) {
        final List<ModelColumn> cols = def.columns();
        final long seed = settings.seed();
        final int n = cols.size();
        SpawnInitializer model = (t, row, id, arg) -> {
            for (int i = 0; i < n; i++) {
                ModelColumn c = cols.get(i);
                c.type().set(modelColumns.get(i).array(), row, c.init().initial(seed, id, (int) arg));
            }
            for (int i = 0; i < extraValues.length; i++) {
                extraSpecs.get(i).type().set(extra.get(i).array(), row, extraValues[i]);
            }
        };
        SpawnInitializer init = system.spawnInitializer(model);
        AgentFilter holds = settings.holds();
        if (holds == null) {
            for (int i = 0; i < settings.agents(); i++) {
                world.commands().spawn(table, init, i);
                if ((i & SPAWN_BATCH - 1) == SPAWN_BATCH - 1) {
                    world.sync(); // in batches: the command buffer stays small
                }
            }
            world.sync();
            return;
        }
        ModelColumn cx = def.hasPositions() ? def.column(def.xColumn()) : null;
        ModelColumn cy = def.hasPositions() ? def.column(def.yColumn()) : null;
        for (int id = 0; id < settings.agents(); id++) {
            float x = cx == null ? Float.NaN : (float) cx.init().initial(seed, id, id);
            float y = cy == null ? Float.NaN : (float) cy.init().initial(seed, id, id);
            if (holds.holds(id, x, y)) {
                world.place(table, id, 0, init, id);
            }
        }
    }

    // ---- ticking ----------------------------------------------------------------------------------

    /** Runs one tick (see the class comment). */
    public void tick() {
        long start = System.nanoTime();
        tick = world.clock().advance();
        float dt = settings.dt();
        tickInfo.set(tick, dt);
        int phase = 0;
        long t = start;
        if (neighbourhood != null) {
            neighbourhood.build(table);
            t = phaseDone(phase++, t);
        }
        for (int i = 0; i < beforeCount; i++) {
            runSystem(i);
            t = phaseDone(phase++, t);
        }
        if (lodKernel != null) {
            world.runPhase(table, lodKernel);
            t = phaseDone(phase++, t);
        }
        system.tickAll(tick, dt);
        t = phaseDone(phase++, t);
        for (int i = beforeCount; i < systems.length; i++) {
            runSystem(i);
            t = phaseDone(phase++, t);
        }
        world.sync();
        t = phaseDone(phase, t);
        metrics.recordTick(t - start);
    }

    private void runSystem(int i) {
        HostSystem s = systems[i];
        s.beginTick(tickInfo);
        if (kernels[i] != null) {
            world.runPhase(table, kernels[i]);
        }
        s.endTick(tickInfo);
    }

    private long phaseDone(int phase, long since) {
        long now = System.nanoTime();
        metrics.recordPhase(phase, now - since);
        return now;
    }

    /** Moves the LOD observer; bands follow from the next tick. Between ticks. */
    public void setObserver(float x, float y) {
        if (!Float.isFinite(x) || !Float.isFinite(y)) {
            throw new IllegalArgumentException("observer = " + x + "," + y + " must be finite");
        }
        if (lodKernel != null) {
            lodKernel.observer(x, y);
        }
        observerX = x;
        observerY = y;
    }

    public float observerX() {
        return observerX;
    }

    public float observerY() {
        return observerY;
    }

    /** Agents per LOD band into {@code counts}; all zero when LOD is off. */
    public void countLodBands(int[] counts) {
        java.util.Arrays.fill(counts, 0);
        if (lodKernel == null) {
            return;
        }
        byte[] band = lodKernel.band().data();
        for (int r = 0, n = table.size(); r < n; r++) {
            int b = band[r] - 1;
            if (b >= 0 && b < counts.length) {
                counts[b]++;
            }
        }
    }

    // ---- views ------------------------------------------------------------------------------------

    public ModelDefinition definition() {
        return def;
    }

    public CompiledStateTree tree() {
        return tree;
    }

    public Settings settings() {
        return settings;
    }

    public World world() {
        return world;
    }

    /** The agent table: the model's columns, the tree's other host columns, the runtime's own. */
    public SoaTable table() {
        return table;
    }

    public StateTreeSystem system() {
        return system;
    }

    /** The last tick run (0: the start). */
    public long tickNumber() {
        return tick;
    }

    /** Phase names, in order. */
    public String[] phases() {
        return phases.clone();
    }

    /** Tick and phase times. */
    public TickMetrics metrics() {
        return metrics;
    }

    /** The model's external {@code name} in this world, or null. */
    public Object external(String name) {
        return externals.get(name);
    }

    /** The x position column, or null. */
    public FloatColumn xColumn() {
        return xColumn;
    }

    /** The y position column, or null. */
    public FloatColumn yColumn() {
        return yColumn;
    }

    /** The neighbourhood (null when the model reads no other agents). */
    public Neighbourhood neighbourhood() {
        return neighbourhood;
    }

    /** The LOD bands in effect, or null. */
    public LodBands lod() {
        return settings.lod();
    }

    /**
     * A hash of the whole world: every column of every agent by id, and every system's own state.
     * The same on any number of workers, and summed over regions the same as the whole world's
     * agents' part ({@link #agentsHash()}).
     */
    public long contentHash() {
        return agentsHash() * 31 + statesHash();
    }

    /** The agents' part of {@link #contentHash}: {@code SoaTable.contentHashByAgent} of the table. */
    public long agentsHash() {
        return table.contentHashByAgent();
    }

    /** The systems' part of {@link #contentHash}. */
    public long statesHash() {
        long h = 0;
        for (HostSystem s : systems) {
            h = h * 31 + s.stateHash();
        }
        return h;
    }

    // ---- halo (regions of a split world) -----------------------------------------------------------

    /** Forgets the halo of the last tick; the next one is added with {@link #addHalo}. */
    public void clearHalo() {
        if (neighbourhood != null) {
            neighbourhood.clearHalo();
        }
    }

    /** A neighbouring region's agent, with its shared columns' raw bits ({@link #sharedBits}), for the next tick. */
    public void addHalo(int agent, float x, float y, long[] sharedBits) {
        neighbourhood.addHalo(agent, x, y, sharedBits);
    }

    /** Shared columns (those the halo carries besides the position). */
    public int sharedCount() {
        return neighbourhood == null ? 0 : neighbourhood.sharedNames().size();
    }

    /** Bytes of shared column {@code i} on the wire (1 or 4). */
    public int sharedWidth(int i) {
        return neighbourhood.width(i);
    }

    /** The raw bits of shared column {@code i} of the agent in row {@code row}, now. */
    public long sharedBits(int i, int row) {
        Column c = table.column(neighbourhood.sharedNames().get(i));
        return c.rowBits(row);
    }

    // ---- snapshots --------------------------------------------------------------------------------

    /**
     * Writes the state a snapshot needs besides the runtime's (which holds the table): the tick, the
     * observer, and every system's own state ({@link HostSystem#save}), each framed by its name and
     * length. Between ticks.
     */
    public void saveState(DataOutputStream out) throws IOException {
        out.writeLong(tick);
        out.writeFloat(observerX());
        out.writeFloat(observerY());
        out.writeInt(systems.length);
        for (int i = 0; i < systems.length; i++) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            DataOutputStream one = new DataOutputStream(bytes);
            systems[i].save(one);
            one.flush();
            out.writeUTF(specs[i].name());
            out.writeInt(bytes.size());
            bytes.writeTo(out);
        }
    }

    /**
     * Reads back {@link #saveState}'s bytes (after the runtime's snapshot was restored into
     * {@link #system()}).
     *
     * @throws IOException when they are not of this model's systems
     */
    public void restoreState(DataInputStream in) throws IOException {
        long t = in.readLong();
        float ox = in.readFloat();
        float oy = in.readFloat();
        int n = in.readInt();
        if (t < 0 || n != systems.length) {
            throw new dev.crowdtree.core.storage.SnapshotException("the snapshot's model state has " + n
                    + " host systems; model '" + def.name() + "' has " + systems.length);
        }
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            int len = in.readInt();
            if (!name.equals(specs[i].name()) || len < 0 || len > in.available()) {
                throw new dev.crowdtree.core.storage.SnapshotException("the snapshot's host system " + i + " is '" + name
                        + "' (" + len + " bytes); model '" + def.name() + "' has '" + specs[i].name() + "' there");
            }
            byte[] bytes = in.readNBytes(len);
            systems[i].restore(new DataInputStream(new java.io.ByteArrayInputStream(bytes)));
        }
        tick = t;
        setObserver(ox, oy);
    }

    @Override
    public void close() {
        world.close();
    }
}
