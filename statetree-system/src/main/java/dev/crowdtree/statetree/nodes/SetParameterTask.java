package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ParamRef;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

/** {@code setParameter}: on enter, writes {@code value} into the agent's parameter {@code param}. */
public final class SetParameterTask extends Task {
    private final ParamRef param;
    private final ValueInput value;

    public SetParameterTask(NodeConfig c) {
        super(c, false);
        this.param = c.param("param");
        this.value = c.input("value");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        param.set(ctx, row, value.getDouble(ctx, row));
        return RunStatus.RUNNING;
    }
}
