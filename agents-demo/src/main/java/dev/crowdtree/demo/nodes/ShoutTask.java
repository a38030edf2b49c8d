package dev.crowdtree.demo.nodes;

import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code shout}: on enter, sends event {@code tag} to up to {@code maxTargets} other agents of the
 * agent's grid cell. The events cross chunks through the runtime's per-chunk buffers and arrive at
 * the start of the next tick. Allocation: none.
 */
public final class ShoutTask extends Task {
    private final CrowdData data;
    private final int tag;
    private final int maxTargets;

    public ShoutTask(NodeConfig c, CrowdData data) {
        super(c, false);
        this.data = data;
        this.tag = c.tag("tag");
        this.maxTargets = c.intValue("maxTargets");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        int c = data.cell.data()[row];
        int[] start = data.cellStart();
        int[] rows = data.cellRows();
        int[] ids = ctx.agentIds();
        int sent = 0;
        for (int k = start[c]; k < start[c + 1] && sent < maxTargets; k++) {
            int other = rows[k];
            if (other != row) {
                ctx.sendEventToAgent(ids[other], tag, 0f, false);
                sent++;
            }
        }
        return RunStatus.RUNNING;
    }
}
