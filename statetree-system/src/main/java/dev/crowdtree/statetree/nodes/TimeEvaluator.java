package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/** {@code time}: output {@code elapsed}, the seconds since the tree started for this agent. */
public final class TimeEvaluator extends Evaluator {
    private final int elapsedSlot;

    public TimeEvaluator(NodeConfig c) {
        super(c);
        this.elapsedSlot = c.field("elapsed");
    }

    @Override
    public void treeStart(NodeContext ctx, int[] rows, int from, int to) {
        final float[] e = ctx.floats(elapsedSlot);
        for (int i = from; i < to; i++) {
            e[rows[i]] = 0f;
        }
    }

    @Override
    public void tickRange(NodeContext ctx, int rowFrom, int rowTo) {
        final float[] e = ctx.floats(elapsedSlot);
        final float dt = ctx.dt();
        for (int r = rowFrom; r < rowTo; r++) {
            e[r] += dt;
        }
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] e = ctx.floats(elapsedSlot);
        final float dt = ctx.dt();
        for (int i = from; i < to; i++) {
            e[rows[i]] += dt;
        }
    }
}
