package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.Task;

/** {@code run}: keeps its state running forever; never ticked. */
public final class RunTask extends Task {
    public RunTask(NodeConfig c) {
        super(c, false);
    }
}
