package dev.crowdtree.examples.guards;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.ModelWorld;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.util.Map;

/**
 * The host: a game server's guards, run in the server's own loop. The guards are the guards model
 * ({@link GuardsModel}: their columns, tree, node types and host systems), here on a square grid of
 * posts just big enough for them, run by the library's {@link ModelWorld}; the server moves the
 * intruder itself, raises alarms and reads what the guards do between ticks. docs/guides/embedding.md ("Embedding
 * walkthrough") quotes this class.
 *
 * <p>Ids and rows: the runtime's methods take agent ids, which stay with a guard for its life;
 * columns are arrays indexed by row, which the world may change (a despawn moves the last row into
 * the gap). Loop over rows to read or write columns ({@code guards.agentIds().data()[row]} is the
 * id in a row); use {@code world.rowOf(id)} to find one guard's row.
 */
public final class GuardPost implements AutoCloseable {
    /** Seconds per tick. */
    public static final float DT = GuardsModel.DT;
    /** Metres between neighbouring posts. */
    public static final float SPACING = GuardsModel.SPACING;

    private final ModelWorld world;
    private final SoaTable guards;
    private final FloatColumn x;
    private final FloatColumn y;
    private final FloatColumn homeX;
    private final FloatColumn homeY;
    private final StateTreeSystem brains;
    private final Intruder intruder;

    /**
     * {@code count} guards on {@code workers} worker threads, randomness from {@code seed}.
     *
     * @throws StateTreeCompileException if guards.json has errors
     */
    public GuardPost(int count, int workers, long seed) throws StateTreeCompileException {
        // The model, on a square grid of posts just big enough for the guards, and its node types.
        ModelDefinition model = new GuardsModel((int) Math.ceil(Math.sqrt(count))).define();
        NodeRegistry nodes = BuiltinNodes.registry();
        model.nodes().forEach(provider -> provider.register(nodes));

        // Its tree compiled; the world built: the guards spawned at their posts, their trees started.
        CompiledStateTree tree = StateTreeJson.compile("guards.json", model.trees().get(0).text().get(),
                new StateTreeCompiler(nodes));
        world = ModelWorld.create(model, tree, nodes,
                ModelWorld.Settings.of(model).withAgents(count).withWorkers(workers).withSeed(seed));

        // The intruder the model made: this host moves it (outside the grounds until it shows up).
        intruder = (Intruder) world.external(Intruder.EXTERNAL);
        intruder.moveTo(-1000, -1000);

        brains = world.system();
        guards = world.table();
        x = (FloatColumn) guards.column(GuardNodes.X);
        y = (FloatColumn) guards.column(GuardNodes.Y);
        homeX = (FloatColumn) guards.column(GuardNodes.HOME_X);
        homeY = (FloatColumn) guards.column(GuardNodes.HOME_Y);
    }

    /** One tick: the model's systems before the trees (sight), the trees, its systems after (movement). */
    public void tick() {
        world.tick();
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
     * Output, read after a tick: how close the nearest guard came to the intruder (the movement
     * system wrote the guards' positions, by row).
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
        int row = world.world().rowOf(id);
        return new float[] {x.get(row), y.get(row)};
    }

    /** Guard {@code id}'s home post. */
    public float[] homeOf(int id) {
        int row = world.world().rowOf(id);
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

    /** The model's world (its table, its phases' timings, snapshots). */
    public ModelWorld world() {
        return world;
    }

    /** A hash of every column of every guard and of the intruder: the same on any number of workers. */
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
}
