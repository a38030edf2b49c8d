/**
 * StateTrees for very large crowds: author a tree ({@code definition}, {@code json}), compile it
 * ({@code compiler} into {@code compiled}), run it for every agent of a SoA table
 * ({@code exec}), write node types ({@code node}; the built-ins are in {@code nodes}), and check a
 * runtime against the literal reference interpreter with scenarios ({@code reference}), and write and
 * read a run's recording ({@code record}).
 * docs/ARCHITECTURE.md maps the packages.
 */
module dev.crowdtree.statetree {
    requires transitive dev.crowdtree.core;
    requires transitive org.jctools.core;
    requires com.fasterxml.jackson.databind;

    exports dev.crowdtree.statetree.definition;
    exports dev.crowdtree.statetree.json;
    exports dev.crowdtree.statetree.compiler;
    exports dev.crowdtree.statetree.compiled;
    exports dev.crowdtree.statetree.node;
    exports dev.crowdtree.statetree.nodes;
    exports dev.crowdtree.statetree.exec;
    exports dev.crowdtree.statetree.reference;
    exports dev.crowdtree.statetree.model;
    exports dev.crowdtree.statetree.record;
    // Node types from jars: NodeProviders finds them with ServiceLoader.
    uses dev.crowdtree.statetree.node.NodeProvider;
    // Simulation models from jars: ModelJars finds them with ServiceLoader.
    uses dev.crowdtree.statetree.model.SimulationModel;

    // Not exported: dev.crowdtree.statetree.fixtures (the trees of the tests and benchmarks) and
    // dev.crowdtree.statetree.internal (what the two runtimes share; not an API).
}
