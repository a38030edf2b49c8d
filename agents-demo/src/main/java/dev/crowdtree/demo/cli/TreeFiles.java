package dev.crowdtree.demo.cli;

import dev.crowdtree.core.world.World;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;

/** The compiler the command line uses: the built-in node types plus the crowd's. */
final class TreeFiles {
    private TreeFiles() {
    }

    /**
     * A compiler that knows the crowd's node types. The nodes it builds are bound to a small,
     * unused crowd: enough to validate, draw and trace assets, never ticked as a crowd.
     */
    static StateTreeCompiler compiler() {
        World w = World.builder().workers(1).maxAgents(1).initialCapacity(1).build();
        CrowdConfig c = CrowdConfig.defaults().withAgents(1).withWorkers(1);
        return new StateTreeCompiler(DemoNodes.registry(CrowdData.detached(c, w)));
    }
}
