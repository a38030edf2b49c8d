package dev.crowdtree.demo.sim;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.TickPeriods;
import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.demo.nodes.CrowdWorld;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The crowd simulation: agents in a bounded square world whose behaviour is a StateTree asset,
 * threats that move and ignite, smart objects with limited slots, a spatial hash grid rebuilt every
 * tick, and local separation. The agents are rows of the world's table; the threats and smart
 * objects are entities of its Dominion instance ({@link CrowdComponents}), which only the simulation
 * thread touches, and the kernels read their flat copies ({@link CrowdData}).
 *
 * <p>One tick ({@link #tick()}), in phases separated by barriers:
 * <ol>
 *   <li>threats (simulation thread): predators move, fires ignite; an ignition alarms nearby agents;</li>
 *   <li>grid (parallel): each agent's cell and a snapshot of its position, then a counting sort of
 *       the rows by cell in parallel phases ({@link GridSort}); every 32 ticks the table's rows are
 *       reordered by cell (columns in parallel), so that a chunk's agents are neighbours in space;</li>
 *   <li>statetree (parallel): perception, tasks (desired velocities, claims, shouts), transitions;</li>
 *   <li>movement (parallel): steering toward the desired velocity, separation from cell mates
 *       (read from the snapshot), integration, the danger flag for next tick's perception;</li>
 *   <li>sync (simulation thread): smart-object claims resolved in chunk order.</li>
 * </ol>
 * Same seed, same hash, whatever the number of workers. A steady tick allocates nothing.
 *
 * <p>LOD (optional, {@link LodBands}): in the grid phase each agent's distance to the observer
 * ({@link #setObserver}) picks its band, and agents whose band changed get the band's tick period
 * through {@link TickPeriods} (the runtime's {@code setTickPeriodOfRow}). The band is kept in a
 * {@code lodBand} column that exists only with LOD on, so runs without LOD hash as before.
 */
public final class CrowdSim implements RegionalSim {
    /** Phase names, in order, for {@link #metrics()}. */
    public static final String[] PHASES = {"threats", "grid", "statetree", "movement", "sync"};
    /** The embedded tree asset. */
    public static final String EMBEDDED_TREE = "trees/crowd.json";

    private static final float ALARM_RADIUS = 150f;
    /** Ticks between reorders of the agent table by grid cell (agents cross a 4 m cell in ~3 s). */
    private static final int REORDER_EVERY = 32;

    private final CrowdConfig config;
    /** The tree asset given (null: the embedded one), kept for snapshots. */
    private final Path treeFile;
    private final World world;
    private final CrowdData data;
    private final CompiledStateTree tree;
    private final StateTreeSystem system;
    private final TickMetrics metrics = new TickMetrics(PHASES);
    private final CrowdGridKernel gridKernel;
    private final MovementKernel movementKernel;
    private final int dangerBegin;
    private final int dangerEnd;
    private final String alarmTag;
    private final LodBands lod;
    /** Region mode: the split and this simulation's region (null, -1: the whole world). */
    private final RegionGrid regions;
    private final int region;
    /** Region mode: the neighbours' agents seen this tick, installed before {@link #tick()}. */
    final Halo halo = new Halo();
    /** Region mode: the exchange with the neighbours (null: the whole world). */
    private CrowdExchange exchange;
    private ByteColumn lodBand;
    private TickPeriods periods;
    // THREADING: written on the simulation thread between phases, read by the grid kernels.
    private float observerX;
    private float observerY;
    private long tick;
    private long alarms;
    private final AwakeStats awake = new AwakeStats();

    /**
     * Builds the world of {@code setup}, compiles its tree (unless it is compiled already) with the
     * crowd's node types, binds it to the crowd's table and, when its nodes ask for it, to the crowd,
     * spawns the agents and starts their trees (tick 0).
     *
     * @throws StateTreeCompileException when the tree has errors or cannot be read
     * @throws IllegalArgumentException  when the tree needs a column or an external nothing gives
     */
    public CrowdSim(CrowdSetup setup) throws StateTreeCompileException {
        final CrowdConfig config = setup.config;
        final Path treeFile = setup.treeFile;
        final RegionGrid regions = setup.regions;
        final int region = setup.region;
        final NodeRegistry nodes = setup.nodes;
        final CompiledStateTree compiled = setup.compiled;
        final String treeName = setup.treeName;
        final String treeText = setup.treeText;
        this.config = config;
        this.treeFile = treeFile;
        this.regions = regions;
        this.region = region;
        // the whole world's table starts empty: its columns are allocated when the agents are spawned,
        // all at once on the workers (World.reserve), instead of one by one as they are added
        int capacity = regions == null ? 0 : Math.min(config.agents(), config.agents() / regions.count * 5 / 4 + 1024);
        this.world = World.builder().workers(config.workers()).chunkSize(4096).seed(config.seed()).dt(config.dt())
                .maxAgents(config.agents()).initialCapacity(capacity).sparseIds(regions != null).build();
        boolean ok = false;
        try {
            this.data = new CrowdData(config, world);
            this.gridKernel = new CrowdGridKernel(data);
            NodeRegistry registry = nodes == null ? DemoNodes.registry() : nodes;
            StateTreeCompiler compiler = new StateTreeCompiler(registry);
            this.tree = compiled != null ? compiled : treeText != null ? StateTreeJson.compile(treeName, treeText, compiler)
                    : treeFile == null
                    ? StateTreeJson.compile(EMBEDDED_TREE, embeddedTreeText(), compiler)
                    : StateTreeJson.compile(treeFile, compiler, setup.maxTreeBytes);
            TreeHost host = new TreeHost(data.table, tree, registry, true);
            this.system = new StateTreeSystem(world, data.table, tree);
            host.bindExternals(system, data);
            int danger = tree.stateByPath(tree.stateName(0) + "/Danger");
            this.dangerBegin = danger;
            this.dangerEnd = danger < 0 ? -1 : tree.stateSubtreeEnd(danger);
            this.movementKernel = new MovementKernel(config, data, system, dangerBegin, dangerEnd);
            this.alarmTag = tree.tagId("Alarm") >= 0 ? "Alarm" : null;
            setObserver(setup.observerX, setup.observerY);
            this.periods = setup.periods == null ? null : setup.periods.apply(data);
            this.lod = spawn(setup.lod, host);
            ok = true;
        } finally {
            if (!ok) {
                world.close();
            }
        }
    }

    /** The text of the embedded tree asset. */
    public static String embeddedTreeText() {
        try (InputStream in = CrowdSim.class.getClassLoader().getResourceAsStream(EMBEDDED_TREE)) {
            if (in == null) {
                throw new IllegalStateException("the embedded tree " + EMBEDDED_TREE + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Spawns and starts the agents; returns the LOD bands in effect (null: off). */
    private LodBands spawn(LodBands lodWanted, TreeHost host) {
        final long seed = config.seed();
        SpawnInitializer place = (t, row, id, arg) -> {
            data.x.set(row, data.startX(seed, id));
            data.y.set(row, data.startY(seed, id));
        };
        SpawnInitializer init = system.spawnInitializer(host.initializer(place));
        if (regions == null) {
            // Agent i's start position is a function of (seed, i): the agents are spawned in the order the
            // grid sorts them (cell, then id), so the first reorder by cell has nothing to move.
            world.reserve(data.table, config.agents()); // the columns at once, on the workers
            int[] order = data.idsByCell(world.executor(), config.agents(), seed);
            world.spawnInOrder(data.table, order, config.agents(), init, 0);
        } else {
            for (int id = 0; id < config.agents(); id++) {
                float x = data.startX(seed, id);
                float y = data.startY(seed, id);
                if (regions.regionOf(x, y) == region) {
                    world.place(data.table, id, 0, init, 0);
                }
            }
            boolean[] owned = new boolean[data.objects.count];
            for (int o = 0; o < owned.length; o++) {
                owned[o] = regions.regionOf(data.objects.x[o], data.objects.y[o]) == region;
            }
            data.objects.ownOnly(owned);
            halo.window(data.side, data.cellSize, regions.x0(region), regions.x1(region), regions.y0(region),
                    regions.y1(region));
            exchange = new CrowdExchange(data, regions, region, halo);
        }
        if (lodWanted != null && periods == null) {
            periods = system::setTickPeriodOfRow;
        }
        LodBands inEffect = lodWanted;
        if (inEffect != null) {
            lodBand = data.table.addByte("lodBand");
            data.lodBand = lodBand;
            data.clearsEveryTick = new byte[inEffect.count() + 1];
            data.clearsEveryTick[0] = 1;
            for (int b = 0; b < inEffect.count(); b++) {
                data.clearsEveryTick[b + 1] = (byte) (inEffect.periodOfBand(b) == 1 ? 1 : 0);
            }
        }
        gridKernel.lod(inEffect, lodBand, periods);
        data.ensureClaimBuffers(data.table.chunkCount(world.chunkSize()));
        data.prepareGrid();
        world.runPhase(data.table, gridKernel);
        if (regions != null) {
            halo.appendToGrid(data, world, true);
        } else {
            data.sortGrid();
            if (!data.gridRowsAreInOrder()) {
                world.reorder(data.table, data.cellRows);
                data.gridRowsAreNowInOrder();
            }
        }
        data.computePanic(regions == null);
        system.startAll(0);
        data.resolveClaims();
        return inEffect;
    }

    /** Runs one tick. */
    public void tick() {
        long t0 = System.nanoTime();
        tick = world.clock().advance();
        int ignited = data.threats.update(tick, config.dt());
        if (ignited >= 0 && alarmTag != null) {
            alarmAround(data.threats.x[ignited], data.threats.y[ignited]);
        }
        long t1 = System.nanoTime();
        data.prepareGrid();
        world.runPhase(data.table, gridKernel);
        if (regions != null) {
            halo.appendToGrid(data, world, tick % REORDER_EVERY == 0);
        } else {
            data.sortGrid();
        }
        if (regions == null && tick % REORDER_EVERY == 0) {
            // Keep rows spatially coherent: a chunk's agents then share cells, so grid lookups,
            // separation and perception touch nearby memory instead of the whole table.
            world.reorder(data.table, data.cellRows);
            data.gridRowsAreNowInOrder();
        }
        data.computePanic(regions == null);
        long t2 = System.nanoTime();
        system.tickAll(tick, config.dt());
        long t3 = System.nanoTime();
        awake.record(system.awakeLastTick());
        world.runPhase(data.table, movementKernel);
        long t4 = System.nanoTime();
        data.resolveClaims();
        world.sync();
        long t5 = System.nanoTime();
        metrics.recordPhase(0, t1 - t0);
        metrics.recordPhase(1, t2 - t1);
        metrics.recordPhase(2, t3 - t2);
        metrics.recordPhase(3, t4 - t3);
        metrics.recordPhase(4, t5 - t4);
        metrics.recordTick(t5 - t0);
    }

    /** Region mode's split, or null. */
    RegionGrid regions() {
        return regions;
    }

    /** Region mode's region, or -1. */
    int region() {
        return region;
    }

    /** The tree asset file, or null for the embedded tree. */
    public Path treeFile() {
        return treeFile;
    }

    /** Snapshot support ({@link CrowdSnapshot}): tick, alarms, awake sum, awake ticks, awake min, awake max. */
    long[] snapshotCounters() {
        long[] a = awake.save();
        return new long[] {tick, alarms, a[0], a[1], a[2], a[3]};
    }

    void restoreCounters(long[] c) {
        tick = c[0];
        alarms = c[1];
        awake.restore(c, 2);
    }

    /** A fire ignited: agents within {@value #ALARM_RADIUS} m hear the alarm next tick. */
    private void alarmAround(float fx, float fy) {
        int[] start = data.cellStart;
        int[] rows = data.cellRows;
        int[] ids = data.table.agentIds().data();
        float[] px = data.snapX.data();
        float[] py = data.snapY.data();
        int cx0 = Math.max(0, (int) ((fx - ALARM_RADIUS) / data.cellSize));
        int cx1 = Math.min(data.side - 1, (int) ((fx + ALARM_RADIUS) / data.cellSize));
        int cy0 = Math.max(0, (int) ((fy - ALARM_RADIUS) / data.cellSize));
        int cy1 = Math.min(data.side - 1, (int) ((fy + ALARM_RADIUS) / data.cellSize));
        if (regions != null) { // region mode: the grid holds the region's window of cells only
            cx0 = Math.max(cx0, halo.cx0);
            cx1 = Math.min(cx1, halo.cx1);
            cy0 = Math.max(cy0, halo.cy0);
            cy1 = Math.min(cy1, halo.cy1);
        }
        float r2 = ALARM_RADIUS * ALARM_RADIUS;
        for (int cy = cy0; cy <= cy1; cy++) {
            for (int cx = cx0; cx <= cx1; cx++) {
                int c = cy * data.side + cx;
                for (int k = start[c]; k < start[c + 1]; k++) {
                    int r = rows[k];
                    if (r >= data.table.size()) {
                        continue; // a neighbour's agent (region mode): its own region alarms it
                    }
                    float dx = px[r] - fx;
                    float dy = py[r] - fy;
                    if (dx * dx + dy * dy < r2) {
                        system.sendEvent(ids[r], alarmTag, 0f, false);
                        alarms++;
                    }
                }
            }
        }
    }

    // ---- views --------------------------------------------------------------------------------

    @Override
    public String[] phases() {
        return PHASES.clone();
    }

    /** What {@code run} and {@code serve} say of the crowd. */
    public static final String MODE = "the crowd: agents wander, flee threats and use smart objects";

    @Override
    public String modelName() {
        return CROWD;
    }

    /** The crowd model's name. */
    public static final String CROWD = "crowd";

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public SimSettings settings() {
        return new SimSettings(config.agents(), config.seed(), config.workers(), config.dt());
    }

    @Override
    public SoaTable table() {
        return data.table;
    }

    @Override
    public boolean hasPositions() {
        return true;
    }

    private Scene scene;

    /** The threats and the smart objects (the arrays the simulation updates). */
    @Override
    public Scene scene() {
        if (scene == null) {
            Threats t = data.threats;
            SmartObjects o = data.objects;
            scene = new Scene(t.count(), t.x, t.y, t.radius, t.kind, t.active, o.count(), o.x, o.y, o.used, o.slots);
        }
        return scene;
    }

    @Override
    public float width() {
        return config.worldSize();
    }

    @Override
    public float height() {
        return config.worldSize();
    }

    @Override
    public float[] xs() {
        return data.x.data();
    }

    @Override
    public float[] ys() {
        return data.y.data();
    }

    /** The crowd's columns that say what an agent does (position, velocity, its steering, its claim), and the tree's. */
    @Override
    public List<String> columnNames() {
        List<String> names = new ArrayList<>(List.of(CrowdWorld.X, CrowdWorld.Y, CrowdWorld.VX, CrowdWorld.VY,
                CrowdWorld.DESIRED_VX, CrowdWorld.DESIRED_VY, CrowdWorld.CELL, CrowdWorld.DANGER,
                CrowdWorld.CLAIM_OBJECT, CrowdWorld.CLAIM_STATE));
        for (HostColumn c : tree.hostColumns) {
            if (!names.contains(c.name())) {
                names.add(c.name());
            }
        }
        return names;
    }

    @Override
    public long save(OutputStream out) throws IOException {
        return CrowdSnapshot.save(this, out);
    }

    @Override
    public String snapshotKind() {
        return CrowdSnapshot.KIND;
    }

    @Override
    public void restore(byte[] snapshot) throws IOException {
        CrowdSnapshot.restore(this, snapshot);
    }

    @Override
    public List<String> summaryLines() {
        return List.of(String.format(Locale.ROOT, "smart-object slots in use: %d of %d; fire alarms heard: %d",
                data.objects.usedSlots(), data.objects.count() * data.objects.slots, alarms));
    }

    public CrowdConfig config() {
        return config;
    }

    public CrowdData data() {
        return data;
    }

    public CompiledStateTree tree() {
        return tree;
    }

    public StateTreeSystem system() {
        return system;
    }

    public World world() {
        return world;
    }

    public TickMetrics metrics() {
        return metrics;
    }

    /** Ticks run since the start. */
    public long tickNumber() {
        return tick;
    }

    /** Agents alarmed by igniting fires so far. */
    public long alarms() {
        return alarms;
    }

    /** Agents awake in the StateTree phase of the last tick ({@link StateTreeSystem#awakeLastTick()}). */
    public int awakeLastTick() {
        return system.awakeLastTick();
    }

    /** Mean of {@link #awakeLastTick()} over the ticks run (0 before the first). */
    public double awakeMean() {
        return awake.mean();
    }

    /** Fewest agents awake in one tick so far (0 before the first tick). */
    public int awakeMin() {
        return awake.min();
    }

    /** Most agents awake in one tick so far. */
    public int awakeMax() {
        return awake.max();
    }

    /** The LOD bands in effect, or null when LOD is off. */
    public LodBands lod() {
        return lod;
    }

    /**
     * Moves the LOD observer; agents' bands follow from the next tick's grid phase. Simulation
     * thread, between ticks.
     */
    public void setObserver(float x, float y) {
        if (!Float.isFinite(x) || !Float.isFinite(y)) {
            throw new IllegalArgumentException("observer = " + x + "," + y + " must be finite");
        }
        observerX = x;
        observerY = y;
        if (gridKernel != null) {
            gridKernel.observer(x, y);
        }
    }

    public float observerX() {
        return observerX;
    }

    public float observerY() {
        return observerY;
    }

    /**
     * Agents per LOD band into {@code counts} (length >= the bands' count), from the bands the last
     * grid phase gave them; all zero when LOD is off. Simulation thread.
     */
    public void countLodBands(int[] counts) {
        Arrays.fill(counts, 0);
        if (lod == null) {
            return;
        }
        byte[] band = lodBand.data();
        for (int r = 0, n = data.table.size(); r < n; r++) {
            int b = band[r] - 1;
            if (b >= 0) {
                counts[b]++;
            }
        }
    }

    /** The LOD band of {@code row} from the last grid phase (-1: none; LOD off). Tests. */
    int lodBandOfRow(int row) {
        return lodBand == null ? -1 : lodBand.data()[row] - 1;
    }

    /** A hash of the whole simulation: every column of every agent, the threats and the smart objects. */
    public long worldHash() {
        return world.contentHash() * 31 + data.extraHash();
    }

    /**
     * Region mode's parts of the world hash, each independent of which region holds what: the sum of
     * the agents' hashes by id ({@code World.contentHashByAgent}), the threats' hash (the same in
     * every region) and the sum of the owned smart objects' hashes.
     */
    @Override
    public long[] hashParts() {
        return new long[] {world.contentHashByAgent(), data.threats.contentHash(), data.objects.ownedHash()};
    }

    /** Fire alarms heard, smart-object slots in use (those of the objects this region owns). */
    @Override
    public long[] counters() {
        return new long[] {alarms, data.objects.usedSlots()};
    }

    // ---- region mode's exchange ({@link CrowdExchange}) ----------------------------------------

    @Override
    public void takeReleases(ReleaseSink sink) throws IOException {
        exchange.takeReleases(sink);
    }

    @Override
    public boolean acceptRelease(int object) {
        return exchange.acceptRelease(object);
    }

    @Override
    public void clearHalo() {
        halo.clear();
    }

    @Override
    public void readHalo(java.io.DataInputStream in, int agent, int owner) throws IOException {
        exchange.readHalo(in, agent, owner);
    }

    @Override
    public void writeHalo(RegionWire.Section[] out, int[] neighbours) throws IOException {
        exchange.writeHalo(out, neighbours);
    }

    @Override
    public void close() {
        world.close();
    }
}
