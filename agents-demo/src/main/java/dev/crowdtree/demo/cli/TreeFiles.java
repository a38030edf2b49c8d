package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.nodes.CrowdWorld;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.reference.RuntimeFactory;

/** The compiler the command line uses: the built-in node types plus the crowd's. */
final class TreeFiles {
    private TreeFiles() {
    }

    /** A compiler that knows the crowd's node types; it needs no world (the nodes bind to columns). */
    static StateTreeCompiler compiler() {
        return new StateTreeCompiler(DemoNodes.registry());
    }

    /**
     * {@code factory}, with the crowd's external bound to an empty crowd when the tree needs it, so
     * that a tree using the crowd's node types can be traced outside a simulation.
     */
    static RuntimeFactory withEmptyCrowd(RuntimeFactory factory) {
        return (tree, agents, seed, workers) -> {
            StateTreeRuntime runtime = factory.create(tree, agents, seed, workers);
            if (tree.externals.stream().anyMatch(e -> e.name().equals(CrowdWorld.EXTERNAL))) {
                runtime.bindExternal(CrowdWorld.EXTERNAL, CrowdWorld.empty(1000f));
            }
            return runtime;
        };
    }
}
