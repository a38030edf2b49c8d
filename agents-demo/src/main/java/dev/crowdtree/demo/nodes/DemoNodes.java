package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.util.Set;

import static dev.crowdtree.demo.nodes.CrowdWorld.CELL;
import static dev.crowdtree.demo.nodes.CrowdWorld.CLAIM_EPOCH;
import static dev.crowdtree.demo.nodes.CrowdWorld.CLAIM_OBJECT;
import static dev.crowdtree.demo.nodes.CrowdWorld.CLAIM_STATE;
import static dev.crowdtree.demo.nodes.CrowdWorld.DANGER;
import static dev.crowdtree.demo.nodes.CrowdWorld.DESIRED_VX;
import static dev.crowdtree.demo.nodes.CrowdWorld.DESIRED_VY;
import static dev.crowdtree.demo.nodes.CrowdWorld.SNAP_X;
import static dev.crowdtree.demo.nodes.CrowdWorld.SNAP_Y;
import static dev.crowdtree.demo.nodes.CrowdWorld.VX;
import static dev.crowdtree.demo.nodes.CrowdWorld.VY;
import static dev.crowdtree.demo.nodes.CrowdWorld.X;
import static dev.crowdtree.demo.nodes.CrowdWorld.Y;
import static dev.crowdtree.statetree.node.HostColumn.Type.BYTE;
import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;
import static dev.crowdtree.statetree.node.HostColumn.Type.INT;

/**
 * The crowd's node types, registered next to the built-ins: the {@code perception} evaluator and
 * the {@code wander}, {@code moveTo}, {@code flee}, {@code shout} and {@code claimSlot} tasks. Each
 * declares the host columns it reads and writes and, where it needs more, the {@link CrowdWorld}
 * external; the registry holds no world, so trees can be compiled, checked and drawn without one.
 *
 * <p>It is the crowd model's {@link NodeProvider} ({@code demo.model.CrowdModel} declares it): its
 * types are registered only when the crowd model is loaded, so a user's jar may name its own types
 * like these. For standalone runs ({@code trace}) the crowd's columns start at 0 and the crowd is
 * {@link CrowdWorld#empty} (no threats, no objects).
 */
public final class DemoNodes implements NodeProvider {
    /** Side of the empty crowd of standalone runs, in metres. */
    private static final float STANDALONE_WORLD = 1000f;

    /** The provider; {@link java.util.ServiceLoader} calls this. */
    public DemoNodes() {
    }

    /** The built-ins plus the crowd's types. */
    public static NodeRegistry registry() {
        NodeRegistry r = BuiltinNodes.registry();
        new DemoNodes().register(r);
        return r;
    }

    /** The names of the crowd's node types: a tree that uses one runs in the crowd. */
    public static Set<String> typeNames() {
        NodeRegistry r = new NodeRegistry();
        new DemoNodes().register(r);
        return r.types().keySet();
    }

    @Override
    public void register(NodeRegistry r) {
        r.register(NodeType.evaluator("perception")
                .tag("hitTag", NodeType.Property::required)
                .constant("range", ValueType.FLOAT, p -> p.byDefault(500.0).min(1))
                .output("threatDistance", ValueType.FLOAT)
                .output("awayX", ValueType.FLOAT)
                .output("awayY", ValueType.FLOAT)
                .output("panic", ValueType.FLOAT)
                .reads(SNAP_X, FLOAT).reads(SNAP_Y, FLOAT).reads(CELL, INT).reads(DANGER, BYTE)
                .writes(DESIRED_VX, FLOAT).writes(DESIRED_VY, FLOAT)
                .external(CrowdWorld.EXTERNAL, CrowdWorld.class)
                .factory(PerceptionEvaluator::new).build());
        r.register(moving(NodeType.task("wander"))
                .constant("radius", ValueType.FLOAT, p -> p.required().range(1, 10_000))
                .input("speed", ValueType.FLOAT, DemoNodes::speed)
                .field("targetX", ValueType.FLOAT)
                .field("targetY", ValueType.FLOAT)
                .reads(X, FLOAT).reads(Y, FLOAT)
                .external(CrowdWorld.EXTERNAL, CrowdWorld.class)
                .factory(WanderTask::new).build());
        r.register(moving(NodeType.task("moveTo"))
                .input("x", ValueType.FLOAT, NodeType.Property::required)
                .input("y", ValueType.FLOAT, NodeType.Property::required)
                .input("speed", ValueType.FLOAT, DemoNodes::speed)
                .constant("arriveDistance", ValueType.FLOAT, p -> p.byDefault(1.0).range(0.01, 1000))
                .reads(X, FLOAT).reads(Y, FLOAT)
                .factory(MoveToTask::new).build());
        r.register(moving(NodeType.task("flee"))
                .input("speed", ValueType.FLOAT, DemoNodes::speed)
                .input("awayX", ValueType.FLOAT, NodeType.Property::required)
                .input("awayY", ValueType.FLOAT, NodeType.Property::required)
                .reads(VX, FLOAT).reads(VY, FLOAT)
                .factory(FleeTask::new).build());
        r.register(NodeType.task("shout")
                .tag("tag", NodeType.Property::required)
                .constant("maxTargets", ValueType.INT, p -> p.byDefault(8).range(0, 1000))
                .reads(CELL, INT)
                .external(CrowdWorld.EXTERNAL, CrowdWorld.class)
                .factory(ShoutTask::new).build());
        r.register(NodeType.task("claimSlot")
                .constant("searchRadius", ValueType.FLOAT, p -> p.byDefault(60.0).range(1, 10_000))
                .output("granted", ValueType.BOOL)
                .output("slotX", ValueType.FLOAT)
                .output("slotY", ValueType.FLOAT)
                .reads(X, FLOAT).reads(Y, FLOAT)
                .writes(CLAIM_OBJECT, INT).writes(CLAIM_STATE, BYTE).writes(CLAIM_EPOCH, INT)
                .external(CrowdWorld.EXTERNAL, CrowdWorld.class)
                .factory(ClaimSlotTask::new).build());
        for (String column : new String[] {X, Y, VX, VY, DESIRED_VX, DESIRED_VY, SNAP_X, SNAP_Y, CELL, DANGER,
                CLAIM_OBJECT, CLAIM_STATE, CLAIM_EPOCH}) {
            r.standaloneColumn(column, 0);
        }
        r.standaloneExternal(CrowdWorld.EXTERNAL, CrowdWorld.class, () -> CrowdWorld.empty(STANDALONE_WORLD));
    }

    /** The speed every steering task reads: required, 0..100. */
    private static void speed(NodeType.Property p) {
        p.required().range(0, 100);
    }

    /** A task that steers: it writes the desired velocity. */
    private static NodeType.Builder moving(NodeType.Builder b) {
        return b.writes(DESIRED_VX, FLOAT).writes(DESIRED_VY, FLOAT);
    }
}
