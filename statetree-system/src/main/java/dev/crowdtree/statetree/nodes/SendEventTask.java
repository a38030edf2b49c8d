package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.PayloadInput;

/**
 * {@code sendEvent}: on enter, sends event {@code tag} to the agent itself, with an optional
 * {@code payload}: a number (the field {@code value}) or an object of named fields, read live.
 */
public final class SendEventTask extends Task {
    private final int tag;
    private final PayloadInput payload;

    public SendEventTask(NodeConfig c) {
        super(c, false);
        this.tag = c.tag("tag");
        this.payload = c.has("payload") ? c.payload("payload") : null;
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        ctx.sendEvent(row, tag, payload == null ? null : payload.fill(ctx, row));
        return RunStatus.RUNNING;
    }
}
