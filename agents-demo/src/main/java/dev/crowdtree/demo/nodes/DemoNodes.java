package dev.crowdtree.demo.nodes;

import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

/**
 * The crowd's node types, registered next to the built-ins: the {@code perception} evaluator and
 * the {@code wander}, {@code moveTo}, {@code flee}, {@code shout} and {@code claimSlot} tasks.
 */
public final class DemoNodes {
    private static final double INF = Double.POSITIVE_INFINITY;

    private DemoNodes() {
    }

    /** The built-ins plus the crowd's types, bound to {@code data}. */
    public static NodeRegistry registry(CrowdData data) {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.evaluator("perception")
                .tag("hitTag", true)
                .constant("range", ValueType.FLOAT, false, 500.0, 1, INF)
                .output("threatDistance", ValueType.FLOAT)
                .output("awayX", ValueType.FLOAT)
                .output("awayY", ValueType.FLOAT)
                .output("panic", ValueType.FLOAT)
                .factory(c -> new PerceptionEvaluator(c, data)).build());
        r.register(NodeType.task("wander")
                .constant("radius", ValueType.FLOAT, true, null, 1, 10_000)
                .input("speed", ValueType.FLOAT, true, null, 0, 100)
                .field("targetX", ValueType.FLOAT)
                .field("targetY", ValueType.FLOAT)
                .factory(c -> new WanderTask(c, data)).build());
        r.register(NodeType.task("moveTo")
                .input("x", ValueType.FLOAT, true, null, -INF, INF)
                .input("y", ValueType.FLOAT, true, null, -INF, INF)
                .input("speed", ValueType.FLOAT, true, null, 0, 100)
                .constant("arriveDistance", ValueType.FLOAT, false, 1.0, 0.01, 1000)
                .factory(c -> new MoveToTask(c, data)).build());
        r.register(NodeType.task("flee")
                .input("speed", ValueType.FLOAT, true, null, 0, 100)
                .input("awayX", ValueType.FLOAT, true, null, -INF, INF)
                .input("awayY", ValueType.FLOAT, true, null, -INF, INF)
                .factory(c -> new FleeTask(c, data)).build());
        r.register(NodeType.task("shout")
                .tag("tag", true)
                .constant("maxTargets", ValueType.INT, false, 8L, 0, 1000)
                .factory(c -> new ShoutTask(c, data)).build());
        r.register(NodeType.task("claimSlot")
                .constant("searchRadius", ValueType.FLOAT, false, 60.0, 1, 10_000)
                .output("granted", ValueType.BOOL)
                .output("slotX", ValueType.FLOAT)
                .output("slotY", ValueType.FLOAT)
                .factory(c -> new ClaimSlotTask(c, data)).build());
        return r;
    }
}
