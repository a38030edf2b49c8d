package com.example.starter;

import dev.crowdtree.statetree.model.ColumnInit;
import dev.crowdtree.statetree.model.HostSystemSpec;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.SimulationModel;

import static com.example.starter.VillagerNodes.HUNGER;
import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;

/**
 * The villagers as a simulation model: a {@code hunger} column (uniform in [0, 1) at the start,
 * drawn from the run's seed), the tree {@code villagers.json} (Wander, Eat, Sleep), the villagers'
 * node types and one host system, {@code metabolism}. {@link Main} runs it in its own loop; every
 * tool of the command line runs it with {@code --model target/starter.jar} (listed in
 * {@code META-INF/services/dev.crowdtree.statetree.model.SimulationModel}).
 */
public final class VillagersModel implements SimulationModel {
    /** How fast every villager gets hungry, per second. */
    public static final float HUNGER_PER_SECOND = 0.04f;
    /** Seconds per tick. */
    public static final float DT = 0.1f;

    /** The model; ServiceLoader calls this. */
    public VillagersModel() {
    }

    @Override
    public ModelDefinition define() {
        return ModelDefinition.builder("villagers")
                .description("villagers wander, eat when they are hungry, then sleep")
                .agents(10_000).dt(DT)
                .column(HUNGER, FLOAT, ColumnInit.uniform(0, 1, 1))
                .treeResource(VillagersModel.class, "/villagers.json")
                .nodes(new VillagerNodes())
                .after(HostSystemSpec.named("metabolism").writes(HUNGER).factory(Metabolism::new))
                .build();
    }
}
