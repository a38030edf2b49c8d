package dev.crowdtree.demo.sim;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.util.Arrays;

/**
 * A tree alone: {@code agents} agents run a StateTree that uses none of the crowd's node types, with
 * no movement, threats or smart objects. Each agent stands still on a square grid over the world
 * (agent {@code i} in row {@code i / side}, column {@code i % side}), which is where {@code serve}
 * draws it, coloured by its active state. The tree is bound only to what it needs: the host columns
 * of its node types are added to the table with the values the node providers gave for standalone
 * runs ({@link NodeRegistry#standaloneColumn}), and its externals are the providers' standalone
 * objects. One tick is the StateTree phase and the sync point; same seed, same hash, whatever the
 * number of workers.
 */
public final class BehaviourSim implements Simulation {
    /** What {@code run} and {@code serve} say of this mode. */
    public static final String MODE = "the tree alone (it uses none of the crowd's node types): agents start on a grid, "
            + "no crowd movement, threats or smart objects";

    /** Phase names, in order, for {@link #metrics()}. */
    private static final String[] PHASES = {"statetree", "sync"};

    private final CrowdConfig config;
    private final World world;
    private final CrowdData data;
    private final CompiledStateTree tree;
    private final StateTreeSystem system;
    private final TickMetrics metrics = new TickMetrics(PHASES);
    private final AwakeStats awake = new AwakeStats();
    private long tick;
    private float observerX;
    private float observerY;

    /**
     * Builds the world ({@code config}'s agents, seed, workers, dt and world size; its threats and
     * smart objects are ignored), spawns the agents on the grid and starts their trees (tick 0).
     *
     * @throws IllegalArgumentException when the tree needs a column or an external no provider gives
     */
    public BehaviourSim(CrowdConfig config, CompiledStateTree tree, NodeRegistry nodes) {
        this.config = new CrowdConfig(config.agents(), config.seed(), config.workers(), config.dt(), config.worldSize(),
                0, 0, 0, config.slotsPerObject(), config.cellSize());
        this.tree = tree;
        this.world = World.builder().workers(config.workers()).chunkSize(4096).seed(config.seed()).dt(config.dt())
                .maxAgents(config.agents()).initialCapacity(config.agents()).build();
        boolean ok = false;
        try {
            this.data = new CrowdData(this.config, world);
            TreeHost host = new TreeHost(data.table, tree, nodes, false);
            this.system = new StateTreeSystem(world, data.table, tree);
            host.bindExternals(system, null);
            final int side = (int) Math.ceil(Math.sqrt(config.agents()));
            final float spacing = config.worldSize() / side;
            SpawnInitializer place = (t, row, id, arg) -> {
                data.x.set(row, (id % side + 0.5f) * spacing);
                data.y.set(row, (id / side + 0.5f) * spacing);
            };
            SpawnInitializer init = system.spawnInitializer(host.initializer(place));
            for (int i = 0; i < config.agents(); i++) {
                world.commands().spawn(data.table, init, 0);
            }
            world.sync();
            system.startAll(0);
            observerX = config.worldSize() / 2;
            observerY = config.worldSize() / 2;
            ok = true;
        } finally {
            if (!ok) {
                world.close();
            }
        }
    }

    @Override
    public void tick() {
        long t0 = System.nanoTime();
        tick = world.clock().advance();
        system.tickAll(tick, config.dt());
        awake.record(system.awakeLastTick());
        long t1 = System.nanoTime();
        world.sync();
        long t2 = System.nanoTime();
        metrics.recordPhase(0, t1 - t0);
        metrics.recordPhase(1, t2 - t1);
        metrics.recordTick(t2 - t0);
    }

    @Override
    public CrowdConfig config() {
        return config;
    }

    @Override
    public CrowdData data() {
        return data;
    }

    @Override
    public CompiledStateTree tree() {
        return tree;
    }

    @Override
    public StateTreeSystem system() {
        return system;
    }

    @Override
    public World world() {
        return world;
    }

    @Override
    public TickMetrics metrics() {
        return metrics;
    }

    @Override
    public String[] phases() {
        return PHASES.clone();
    }

    @Override
    public boolean isCrowd() {
        return false;
    }

    @Override
    public long tickNumber() {
        return tick;
    }

    @Override
    public int awakeLastTick() {
        return system.awakeLastTick();
    }

    @Override
    public double awakeMean() {
        return awake.mean();
    }

    @Override
    public int awakeMin() {
        return awake.min();
    }

    @Override
    public int awakeMax() {
        return awake.max();
    }

    /** Always null: LOD bands are the crowd's, by distance to an observer of a moving crowd. */
    @Override
    public LodBands lod() {
        return null;
    }

    @Override
    public void setObserver(float x, float y) {
        observerX = x;
        observerY = y;
    }

    @Override
    public float observerX() {
        return observerX;
    }

    @Override
    public float observerY() {
        return observerY;
    }

    @Override
    public void countLodBands(int[] counts) {
        Arrays.fill(counts, 0);
    }

    /** Every column of every agent (the tree's instance data and host columns included). */
    @Override
    public long worldHash() {
        return world.contentHash();
    }

    @Override
    public void close() {
        world.close();
    }
}
