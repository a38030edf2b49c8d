package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code shout}: on enter, sends event {@code tag} to up to {@code maxTargets} other agents of the
 * agent's grid cell. The events cross chunks through the runtime's per-chunk buffers and arrive at
 * the start of the next tick. Reads {@code cell} and the crowd's grid. Allocation: none.
 */
public final class ShoutTask extends Task {
    private final External<CrowdWorld> crowd;
    private final int cellCol;
    private final int tag;
    private final int maxTargets;

    public ShoutTask(NodeConfig c) {
        super(c, false);
        this.crowd = c.external(CrowdWorld.EXTERNAL, CrowdWorld.class);
        this.cellCol = c.column(CrowdWorld.CELL);
        this.tag = c.tag("tag");
        this.maxTargets = c.intValue("maxTargets");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        CrowdWorld w = ctx.external(crowd);
        int c = ctx.hostInts(cellCol)[row];
        int[] start = w.cellStart();
        int[] rows = w.cellRows();
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
