package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.util.List;

import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;

/**
 * The guards' node types: the condition {@code canSee} and the tasks {@code patrol} and
 * {@code moveTowards}. The guards' model ({@link GuardsModel}) registers them; as a
 * {@link NodeProvider} of their own (listed in
 * {@code META-INF/services/dev.crowdtree.statetree.node.NodeProvider}) they also reach the command
 * line alone ({@code --nodes target/guards.jar}), with what they need when no model runs them: a
 * value for each host column and an intruder.
 */
public final class GuardNodes implements NodeProvider {
    /**
     * Host columns: position (read by the tasks, moved by the model's movement system), the velocity
     * the tasks choose, the home post, the distance to the intruder (written by the model's sight
     * system, or by your host).
     */
    public static final String X = "x", Y = "y", VX = "vx", VY = "vy", HOME_X = "homeX", HOME_Y = "homeY",
            DISTANCE = "distance";

    /** The provider; ServiceLoader calls this. */
    public GuardNodes() {
    }

    /** The built-in node types and the guards'. */
    public static NodeRegistry registry() {
        NodeRegistry registry = BuiltinNodes.registry();
        new GuardNodes().register(registry);
        return registry;
    }

    @Override
    public void register(NodeRegistry registry) {
        registry.register(NodeType.condition("canSee")
                .constant("range", ValueType.FLOAT, p -> p.required().min(0))
                .reads(DISTANCE, FLOAT)
                .factory(CanSeeCondition::new).build());
        registry.register(NodeType.task("patrol")
                .constant("length", ValueType.FLOAT, p -> p.required().min(0))
                .constant("speed", ValueType.FLOAT, p -> p.required().min(0))
                .field("startX", ValueType.FLOAT)
                .field("startY", ValueType.FLOAT)
                .field("leg", ValueType.INT)
                .reads(X, FLOAT).reads(Y, FLOAT)
                .writes(VX, FLOAT).writes(VY, FLOAT)
                .factory(PatrolTask::new).build());
        registry.register(NodeType.task("moveTowards")
                .choice("to", List.of("intruder", "home"), NodeType.Property::required)
                .constant("speed", ValueType.FLOAT, p -> p.required().min(0))
                .reads(X, FLOAT).reads(Y, FLOAT)
                .writes(VX, FLOAT).writes(VY, FLOAT)
                .reads(HOME_X, FLOAT).reads(HOME_Y, FLOAT)
                .external(Intruder.EXTERNAL, Intruder.class)
                .factory(MoveTowardsTask::new).build());
        // Without a model or this program (the command line's --nodes alone, trace): every guard at home
        // at the origin, the intruder far away, 50 m east.
        for (String column : List.of(X, Y, VX, VY, HOME_X, HOME_Y)) {
            registry.standaloneColumn(column, 0);
        }
        registry.standaloneColumn(DISTANCE, 1000);
        registry.standaloneExternal(Intruder.EXTERNAL, Intruder.class, () -> new Intruder(50, 0));
    }
}
