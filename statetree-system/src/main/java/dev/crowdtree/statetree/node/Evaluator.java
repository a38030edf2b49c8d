package dev.crowdtree.statetree.node;

/**
 * An evaluator: tree-global data provider, started with the tree, ticked once per agent per tick
 * before tasks (and once with dt 0 at start, before the first selection), stopped with the tree.
 * Its outputs are per-agent slots that conditions and tasks bind to. All three calls are batch
 * kernels over {@code rows[from .. to-1]}.
 */
public abstract class Evaluator extends Node {
    protected Evaluator(NodeConfig config) {
        super(config);
    }

    public void treeStart(NodeContext ctx, int[] rows, int from, int to) {
    }

    public abstract void tick(NodeContext ctx, int[] rows, int from, int to);

    public void treeStop(NodeContext ctx, int[] rows, int from, int to) {
    }
}
