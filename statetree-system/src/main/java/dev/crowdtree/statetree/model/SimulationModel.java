package dev.crowdtree.statetree.model;

/**
 * A user's simulation, found by {@link java.util.ServiceLoader} the way node types are
 * ({@link dev.crowdtree.statetree.node.NodeProvider}): the unit every tool runs (the command line's
 * {@code --model PATH}: run, save and load, LOD, recordings, serve, the debugger, sweeps, the cluster,
 * chaos, the benchmark). Declare the implementation (a public class with a public no-argument
 * constructor) in its jar's {@code META-INF/services/dev.crowdtree.statetree.model.SimulationModel}
 * (a modular jar also with {@code provides ... with ...;}).
 *
 * <p>{@link #define} says everything about it ({@link ModelDefinition}); {@link ModelWorld} runs it.
 * The same definition must come back from every call: every member of a cluster builds its regions
 * from its own call, and the runs agree only if the definitions do.
 *
 * <p>THREADING: called on the thread that loads the model.
 */
public interface SimulationModel {
    /** The model's declaration. */
    ModelDefinition define();
}
