package dev.crowdtree.examples.guards;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The host: a game server's guards, each at a post on a square grid, running the tree
 * {@code guards.json} (Patrol, Chase, Respond, Return). Per tick the host writes every guard's
 * distance to the intruder into the {@code distance} column, the trees run, and the host reads
 * positions and states back. README.md's "Embedding walkthrough" quotes this class.
 *
 * <p>Ids and rows: the runtime's methods take agent ids, which stay with a guard for its life;
 * columns are arrays indexed by row, which the world may change (a despawn moves the last row into
 * the gap). Loop over rows to read or write columns ({@code guards.agentIds().data()[row]} is the
 * id in a row); use {@code world.rowOf(id)} to find one guard's row.
 */
public final class GuardPost implements AutoCloseable {
    /** Seconds per tick. */
    public static final float DT = 0.1f;
    /** Metres between neighbouring posts. */
    public static final float SPACING = 20f;

    private final World world;
    private final SoaTable guards;
    private final FloatColumn x;
    private final FloatColumn y;
    private final FloatColumn homeX;
    private final FloatColumn homeY;
    private final FloatColumn distance;
    private final StateTreeSystem brains;
    private final Intruder intruder = new Intruder(-1000, -1000); // outside the grounds until it shows up

    /**
     * {@code count} guards on {@code workers} worker threads, randomness from {@code seed}.
     *
     * @throws StateTreeCompileException if guards.json has errors
     */
    public GuardPost(int count, int workers, long seed) throws StateTreeCompileException {
        // A world sized for the guards, and their table with every column the node types declare.
        world = World.builder().workers(workers).seed(seed).dt(DT).maxAgents(count).build();
        guards = world.createTable("guards");
        x = guards.addFloat(GuardNodes.X);
        y = guards.addFloat(GuardNodes.Y);
        homeX = guards.addFloat(GuardNodes.HOME_X);
        homeY = guards.addFloat(GuardNodes.HOME_Y);
        distance = guards.addFloat(GuardNodes.DISTANCE);

        // The tree, compiled with the guards' node types; the runtime on the table; the intruder bound.
        StateTreeCompiler compiler = new StateTreeCompiler(GuardNodes.registry());
        CompiledStateTree tree = StateTreeJson.compile("guards.json", treeText(), compiler);
        brains = new StateTreeSystem(world, guards, tree);
        brains.bindExternal(Intruder.EXTERNAL, intruder);

        // The guards, each at its post on the grid, then their trees started (tick 0).
        int side = (int) Math.ceil(Math.sqrt(count));
        SpawnInitializer atPost = (table, row, id, arg) -> {
            float px = (id % side) * SPACING;
            float py = (id / side) * SPACING;
            homeX.set(row, px);
            homeY.set(row, py);
            x.set(row, px);
            y.set(row, py);
        };
        SpawnInitializer init = brains.spawnInitializer(atPost); // also gives the tree's own columns their defaults
        for (int i = 0; i < count; i++) {
            world.commands().spawn(guards, init, 0);
        }
        world.sync();
        brains.startAll(0);
    }

    /** One tick: the host's per-guard input, the trees, the sync point. */
    public void tick() {
        // Input: every guard's distance to the intruder, written by row, before the trees read it.
        final float[] gx = x.data();
        final float[] gy = y.data();
        final float[] d = distance.data();
        final float ix = intruder.x();
        final float iy = intruder.y();
        for (int row = 0, n = guards.size(); row < n; row++) {
            float dx = gx[row] - ix;
            float dy = gy[row] - iy;
            d[row] = (float) Math.sqrt(dx * dx + dy * dy);
        }
        long tick = world.clock().advance();
        brains.tickAll(tick, world.clock().dt());
        world.sync();
    }

    /**
     * Sends the event {@code Alarm} with the payload {@code level} to every guard within
     * {@code radius} metres of ({@code cx}, {@code cy}); they see it in the next tick. Returns how
     * many were alarmed. The tree takes {@code level} as an int: a level sent as a float matches no
     * transition, and the runtime counts it ({@code unmatchedPayloads()}).
     */
    public int alarm(float cx, float cy, float radius, Number level) {
        final float[] gx = x.data();
        final float[] gy = y.data();
        final int[] ids = guards.agentIds().data(); // the agent id in each row
        Map<String, Number> payload = Map.of("level", level);
        int alarmed = 0;
        for (int row = 0, n = guards.size(); row < n; row++) {
            float dx = gx[row] - cx;
            float dy = gy[row] - cy;
            if (dx * dx + dy * dy <= radius * radius) {
                brains.sendEvent(ids[row], "Alarm", payload); // the runtime takes ids, not rows
                alarmed++;
            }
        }
        return alarmed;
    }

    /** Guards per state, indexed by state id (state names: {@code tree().stateName(s)}). */
    public int[] occupancy() {
        int[] counts = new int[brains.tree().stateCount];
        brains.countActiveStates(counts);
        return counts;
    }

    /** How many guards are in the state named {@code stateName} (e.g. "Chase"). */
    public int count(String stateName) {
        int s = brains.tree().stateByPath("Root/" + stateName);
        if (s < 0) {
            throw new IllegalArgumentException("no state Root/" + stateName + " in the guards' tree");
        }
        return occupancy()[s];
    }

    /** The active state path of guard {@code id}, e.g. "Root/Chase". */
    public String stateOf(int id) {
        return brains.activePath(id);
    }

    /**
     * Output, read after a tick: how close the nearest guard came to the intruder (the tasks wrote
     * the guards' positions, by row).
     */
    public float nearestGuardDistance() {
        final float[] gx = x.data();
        final float[] gy = y.data();
        final float ix = intruder.x();
        final float iy = intruder.y();
        float best = Float.POSITIVE_INFINITY;
        for (int row = 0, n = guards.size(); row < n; row++) {
            float dx = gx[row] - ix;
            float dy = gy[row] - iy;
            best = Math.min(best, dx * dx + dy * dy);
        }
        return (float) Math.sqrt(best);
    }

    /** Guard {@code id}'s position: its row's x and y. */
    public float[] positionOf(int id) {
        int row = world.rowOf(id);
        return new float[] {x.get(row), y.get(row)};
    }

    /** Guard {@code id}'s home post. */
    public float[] homeOf(int id) {
        int row = world.rowOf(id);
        return new float[] {homeX.get(row), homeY.get(row)};
    }

    /** The intruder the host moves between ticks. */
    public Intruder intruder() {
        return intruder;
    }

    /** The runtime (events, failures, payload mismatches, ...). */
    public StateTreeSystem brains() {
        return brains;
    }

    /** A hash of every column of every guard: the same on any number of workers. */
    public long hash() {
        return world.contentHash();
    }

    /** The number of guards. */
    public int size() {
        return guards.size();
    }

    @Override
    public void close() {
        world.close();
    }

    /** The tree asset, from the jar (the pom copies guards.json there). */
    static String treeText() {
        try (InputStream in = GuardPost.class.getResourceAsStream("/guards.json")) {
            if (in == null) {
                throw new IllegalStateException("guards.json is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
