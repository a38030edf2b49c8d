/**
 * The guards: a host that embeds crowdtree, and the node types it brings. As a module it declares
 * its node provider with {@code provides}; as a plain jar on a class path (the command line's
 * {@code --nodes target/guards.jar}) it lists it in
 * {@code META-INF/services/dev.crowdtree.statetree.node.NodeProvider}.
 */
module dev.crowdtree.examples.guards {
    requires transitive dev.crowdtree.statetree; // its public classes extend and return the library's
    requires dev.crowdtree.demo; // the browser debugger (agents-demo, an automatic module; AttachDebuggerTest)

    exports dev.crowdtree.examples.guards;

    provides dev.crowdtree.statetree.node.NodeProvider with dev.crowdtree.examples.guards.GuardNodes;
}
