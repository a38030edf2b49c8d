package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.ValueType;

/** The built-in tasks, conditions and evaluators, and a registry holding them. */
public final class BuiltinNodes {
    private static final double INF = Double.POSITIVE_INFINITY;

    private BuiltinNodes() {
    }

    /** A new registry with every built-in type; add your own with {@link NodeRegistry#register}. */
    public static NodeRegistry registry() {
        NodeRegistry r = new NodeRegistry();
        // tasks
        r.register(NodeType.task("delay")
                .input("duration", ValueType.FLOAT, true, null, 0, INF)
                .input("randomDeviation", ValueType.FLOAT, false, 0.0, 0, INF)
                .timer("remaining", TimerKind.SECONDS)
                .factory(DelayTask::new).build());
        r.register(finish("succeed", RunStatus.SUCCEEDED));
        r.register(finish("fail", RunStatus.FAILED));
        r.register(NodeType.task("run").factory(RunTask::new).build());
        r.register(NodeType.task("setParameter")
                .param("param", true)
                .inputTypedLike("value", "param", true)
                .factory(SetParameterTask::new).build());
        r.register(NodeType.task("waitUntil").condition("condition", true).factory(WaitUntilTask::new).build());
        r.register(NodeType.task("sendEvent")
                .tag("tag", true)
                .payload("payload", false)
                .factory(SendEventTask::new).build());
        // conditions
        r.register(NodeType.condition("compare")
                .param("param", false).input("input", null, false, null, -INF, INF).oneOf("param", "input")
                .choice("op", true, null, CompareCondition.OPS)
                .input("value", null, true, null, -INF, INF)
                .factory(CompareCondition::new).build());
        r.register(NodeType.condition("floatRange")
                .param("param", false).input("input", null, false, null, -INF, INF).oneOf("param", "input")
                .input("min", null, true, null, -INF, INF)
                .input("max", null, true, null, -INF, INF)
                .factory(FloatRangeCondition::new).build());
        r.register(NodeType.condition("bool")
                .param("param", false).input("input", ValueType.BOOL, false, null, -INF, INF).oneOf("param", "input")
                .factory(BoolCondition::new).build());
        r.register(NodeType.condition("not").condition("condition", true).factory(NotCondition::new).build());
        r.register(NodeType.condition("and").conditions("conditions", true)
                .factory(c -> new JunctionCondition(c, true)).build());
        r.register(NodeType.condition("or").conditions("conditions", true)
                .factory(c -> new JunctionCondition(c, false)).build());
        r.register(NodeType.condition("randomChance")
                .input("probability", ValueType.FLOAT, true, null, 0, 1)
                .factory(RandomChanceCondition::new).build());
        // evaluators
        r.register(NodeType.evaluator("time").output("elapsed", ValueType.FLOAT).factory(TimeEvaluator::new).build());
        r.register(NodeType.evaluator("random").output("value", ValueType.FLOAT).factory(RandomEvaluator::new).build());
        r.register(NodeType.evaluator("wave")
                .constant("period", ValueType.FLOAT, false, 10.0, 1e-6, INF)
                .constant("amplitude", ValueType.FLOAT, false, 1.0, -INF, INF)
                .constant("offset", ValueType.FLOAT, false, 0.0, -INF, INF)
                .choice("shape", false, "sine", "sine", "triangle")
                .output("value", ValueType.FLOAT)
                .field("t", ValueType.FLOAT)
                .field("phase", ValueType.FLOAT)
                .factory(WaveEvaluator::new).build());
        return r;
    }

    private static NodeType finish(String name, byte status) {
        return NodeType.task(name)
                .constant("afterTicks", ValueType.INT, false, 1L, 1, Integer.MAX_VALUE)
                .constant("onEnter", ValueType.BOOL, false, Boolean.FALSE, 0, 1)
                .timer("ticks", TimerKind.TICKS)
                .factory(c -> new FinishTask(c, status)).build();
    }
}
