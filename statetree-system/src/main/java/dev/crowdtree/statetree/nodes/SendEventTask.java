package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/** {@code sendEvent}: on enter, sends event {@code tag} (with an optional {@code payload}) to the agent itself. */
public final class SendEventTask extends Task {
    private final int tag;
    private final ValueInput payload;

    public SendEventTask(NodeConfig c) {
        super(c, false);
        this.tag = c.tag("tag");
        this.payload = c.has("payload") ? c.input("payload") : null;
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        if (payload == null) {
            ctx.sendEvent(row, tag, 0f, false);
        } else {
            ctx.sendEvent(row, tag, payload.getFloat(ctx, row), true);
        }
        return RunStatus.RUNNING;
    }
}
