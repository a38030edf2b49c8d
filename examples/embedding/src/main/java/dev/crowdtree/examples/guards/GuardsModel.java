package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.model.HostSystemSpec;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.SimulationModel;

import static dev.crowdtree.examples.guards.GuardNodes.DISTANCE;
import static dev.crowdtree.examples.guards.GuardNodes.HOME_X;
import static dev.crowdtree.examples.guards.GuardNodes.HOME_Y;
import static dev.crowdtree.examples.guards.GuardNodes.VX;
import static dev.crowdtree.examples.guards.GuardNodes.VY;
import static dev.crowdtree.examples.guards.GuardNodes.X;
import static dev.crowdtree.examples.guards.GuardNodes.Y;
import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;

/**
 * The guards as a simulation model: what every tool of the command line runs with
 * {@code --model target/guards.jar} (listed in
 * {@code META-INF/services/dev.crowdtree.statetree.model.SimulationModel}), and what
 * {@link GuardPost} runs in its own loop.
 *
 * <ul>
 *   <li>Columns: each guard's post ({@code homeX}, {@code homeY}) on a square grid of posts
 *       {@value #SPACING} m apart, {@code postsPerRow} to a row (guard {@code i} at column
 *       {@code i % postsPerRow}, row {@code i / postsPerRow}); its position ({@code x}, {@code y}),
 *       starting at its post; the velocity its task chooses ({@code vx}, {@code vy}); its distance to
 *       the intruder ({@code distance}).</li>
 *   <li>Host systems: before the trees, {@code intruder} (the intruder walks its route) and
 *       {@code sight} (every guard's distance to it); after the trees, {@code movement} (the guards
 *       walk, pushed apart within {@value #PERSONAL_SPACE} m).</li>
 *   <li>The tree {@code guards.json} (Patrol, Chase, Respond, Return), the guards' node types
 *       ({@link GuardNodes}), the intruder as an external, positions over the grounds (the viewer, a
 *       split by regions, LOD) and a reach of {@value #PERSONAL_SPACE} m (how far the movement reads
 *       other guards: a region's halo).</li>
 * </ul>
 */
public final class GuardsModel implements SimulationModel {
    /** Metres between neighbouring posts. */
    public static final float SPACING = 20f;
    /** Guards closer than this push each other apart (the movement system), in metres. */
    public static final float PERSONAL_SPACE = 1.5f;
    /** Seconds per tick. */
    public static final float DT = 0.1f;
    /** Posts per row of the command line's model: 100 x 100 posts over 2 km x 2 km. */
    public static final int POSTS_PER_ROW = 100;

    private final int postsPerRow;

    /** The command line's guards: {@value #POSTS_PER_ROW} posts to a row. ServiceLoader calls this. */
    public GuardsModel() {
        this(POSTS_PER_ROW);
    }

    /** Guards at posts {@code postsPerRow} to a row (the grounds are that many posts wide and high). */
    public GuardsModel(int postsPerRow) {
        if (postsPerRow < 1) {
            throw new IllegalArgumentException("postsPerRow = " + postsPerRow + "; it must be at least 1");
        }
        this.postsPerRow = postsPerRow;
    }

    @Override
    public ModelDefinition define() {
        final int side = postsPerRow;
        final float grounds = side * SPACING;
        return ModelDefinition.builder("guards")
                .description("guards patrol their posts, chase the intruder they see and answer alarms")
                .agents(side * side).dt(DT)
                .column(HOME_X, FLOAT, (seed, id, i) -> (id % side) * SPACING)
                .column(HOME_Y, FLOAT, (seed, id, i) -> (id / side) * SPACING)
                .column(X, FLOAT, (seed, id, i) -> (id % side) * SPACING)
                .column(Y, FLOAT, (seed, id, i) -> (id / side) * SPACING)
                .column(VX, FLOAT, 0)
                .column(VY, FLOAT, 0)
                .column(DISTANCE, FLOAT, 1000)
                .positions(X, Y, grounds, grounds).reach(PERSONAL_SPACE)
                .treeResource(GuardsModel.class, "/guards.json")
                .nodes(new GuardNodes())
                .external(Intruder.EXTERNAL, Intruder.class, () -> Intruder.onRoute(grounds))
                .before(HostSystemSpec.named("intruder").factory(IntruderSystem::new))
                .before(HostSystemSpec.named("sight").reads(X, Y).writes(DISTANCE).factory(SightSystem::new))
                .after(HostSystemSpec.named("movement").reads(VX, VY).writes(X, Y).factory(MovementSystem::new))
                .build();
    }
}
