package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.ValueType;

import java.util.List;

/** The built-in tasks, conditions and evaluators, and a registry holding them. */
public final class BuiltinNodes {
    private BuiltinNodes() {
    }

    /** A new registry with every built-in type; add your own with {@link NodeRegistry#register}. */
    public static NodeRegistry registry() {
        NodeRegistry r = new NodeRegistry().origin("the built-in node types");
        // tasks
        r.register(NodeType.task("delay")
                .input("duration", ValueType.FLOAT, p -> p.required().min(0))
                .input("randomDeviation", ValueType.FLOAT, p -> p.byDefault(0.0).min(0))
                .timer("remaining", TimerKind.SECONDS)
                .completes(true, false)
                .factory(DelayTask::new).build());
        r.register(finish("succeed", RunStatus.SUCCEEDED));
        r.register(finish("fail", RunStatus.FAILED));
        r.register(NodeType.task("run").completes(false, false).factory(RunTask::new).build());
        r.register(NodeType.task("setParameter")
                .param("param", NodeType.Property::required)
                .inputLike("value", "param", NodeType.Property::required)
                .completes(false, false)
                .factory(SetParameterTask::new).build());
        r.register(NodeType.task("waitUntil").condition("condition", NodeType.Property::required).completes(true, false)
                .factory(WaitUntilTask::new).build());
        r.register(NodeType.task("sendEvent")
                .tag("tag", NodeType.Property::required)
                .payload("payload")
                .completes(false, false)
                .factory(SendEventTask::new).build());
        r.register(NodeType.task("requestTransition")
                .state("to", NodeType.Property::required)
                .choice("priority", NodeContext.PRIORITIES, p -> p.byDefault("normal"))
                .condition("when")
                .requestsTransitions()
                .completes(false, false)
                .factory(RequestTransitionTask::new).build());
        // conditions
        r.register(NodeType.condition("compare")
                .param("param").numberInput("input").oneOf("param", "input")
                .choice("op", List.of(CompareCondition.OPS), NodeType.Property::required)
                .numberInput("value", NodeType.Property::required)
                .factory(CompareCondition::new).build());
        r.register(NodeType.condition("floatRange")
                .param("param").numberInput("input").oneOf("param", "input")
                .numberInput("min", NodeType.Property::required)
                .numberInput("max", NodeType.Property::required)
                .factory(FloatRangeCondition::new).build());
        r.register(NodeType.condition("bool")
                .param("param").input("input", ValueType.BOOL).oneOf("param", "input")
                .factory(BoolCondition::new).build());
        r.register(NodeType.condition("not").condition("condition", NodeType.Property::required).factory(NotCondition::new).build());
        r.register(NodeType.condition("and").conditions("conditions", NodeType.Property::required)
                .factory(c -> new JunctionCondition(c, true)).build());
        r.register(NodeType.condition("or").conditions("conditions", NodeType.Property::required)
                .factory(c -> new JunctionCondition(c, false)).build());
        r.register(NodeType.condition("randomChance")
                .input("probability", ValueType.FLOAT, p -> p.required().range(0, 1))
                .factory(RandomChanceCondition::new).build());
        // evaluators
        r.register(NodeType.evaluator("time").output("elapsed", ValueType.FLOAT).factory(TimeEvaluator::new).build());
        r.register(NodeType.evaluator("random").output("value", ValueType.FLOAT).factory(RandomEvaluator::new).build());
        r.register(NodeType.evaluator("wave")
                .constant("period", ValueType.FLOAT, p -> p.byDefault(10.0).min(1e-6))
                .constant("amplitude", ValueType.FLOAT, p -> p.byDefault(1.0))
                .constant("offset", ValueType.FLOAT, p -> p.byDefault(0.0))
                .choice("shape", List.of("sine", "triangle"), p -> p.byDefault("sine"))
                .output("value", ValueType.FLOAT)
                .field("t", ValueType.FLOAT)
                .field("phase", ValueType.FLOAT)
                .factory(WaveEvaluator::new).build());
        return r.origin("the program"); // what a program registers next is its own
    }

    private static NodeType finish(String name, byte status) {
        return NodeType.task(name)
                .constant("afterTicks", ValueType.INT, p -> p.byDefault(1).range(1, Integer.MAX_VALUE))
                .constant("onEnter", ValueType.BOOL, p -> p.byDefault(false))
                .timer("ticks", TimerKind.TICKS)
                .completes(status == RunStatus.SUCCEEDED, status == RunStatus.FAILED)
                .factory(c -> new FinishTask(c, status)).build();
    }
}
