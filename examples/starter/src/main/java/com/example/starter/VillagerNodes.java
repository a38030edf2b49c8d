package com.example.starter;

import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;

/**
 * The villagers' node types: the task {@code eat} and the condition {@code hungry}, both on the host
 * column {@code hunger}. The model ({@link VillagersModel}) registers them; listed in
 * {@code META-INF/services/dev.crowdtree.statetree.node.NodeProvider}, they also reach the command
 * line alone ({@code --nodes target/starter.jar}).
 */
public final class VillagerNodes implements NodeProvider {
    /** Host column: how hungry a villager is, 0 (full) and up; the model's metabolism raises it. */
    public static final String HUNGER = "hunger";

    /** The provider; ServiceLoader calls this. */
    public VillagerNodes() {
    }

    /** The built-in node types and the villagers'. */
    public static NodeRegistry registry() {
        NodeRegistry registry = BuiltinNodes.registry();
        new VillagerNodes().register(registry);
        return registry;
    }

    @Override
    public void register(NodeRegistry registry) {
        registry.register(NodeType.task("eat")
                .constant("rate", ValueType.FLOAT, p -> p.required().min(0.001))
                .writes(HUNGER, FLOAT)
                .completes(true, false) // it only succeeds (when full)
                .factory(EatTask::new).build());
        registry.register(NodeType.condition("hungry")
                .constant("above", ValueType.FLOAT, p -> p.required().min(0))
                .reads(HUNGER, FLOAT)
                .factory(HungryCondition::new).build());
        // Without the model (the command line's --nodes alone, trace): every villager starts hungry.
        registry.standaloneColumn(HUNGER, 1);
    }
}
