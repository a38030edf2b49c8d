/**
 * The guards: a simulation model (GuardsModel), the node types it brings (GuardNodes) and a host
 * that runs it in its own loop (GuardPost). As a module it declares both with {@code provides}; as
 * a plain jar on a class path (the command line's {@code --model target/guards.jar}, or
 * {@code --nodes target/guards.jar} for the node types alone) it lists them in
 * {@code META-INF/services/}.
 */
module dev.crowdtree.examples.guards {
    requires transitive dev.crowdtree.statetree; // its public classes extend and return the library's
    requires dev.crowdtree.demo; // the browser debugger (agents-demo, an automatic module; AttachDebuggerTest)

    exports dev.crowdtree.examples.guards;

    provides dev.crowdtree.statetree.node.NodeProvider with dev.crowdtree.examples.guards.GuardNodes;
    provides dev.crowdtree.statetree.model.SimulationModel with dev.crowdtree.examples.guards.GuardsModel;
}
