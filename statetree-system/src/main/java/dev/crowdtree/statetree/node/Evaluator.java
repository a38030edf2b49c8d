package dev.crowdtree.statetree.node;

/**
 * An evaluator: tree-global data provider, started with the tree, ticked once per agent per tick
 * before tasks (and once with dt 0 at start, before the first selection), stopped with the tree.
 * Its outputs are per-agent slots that conditions and tasks bind to. All three calls are batch
 * kernels over {@code rows[from .. to-1]}.
 *
 * <p>Schedule: an {@link Schedule#EVERY_TICK} evaluator (the default) is ticked for every running
 * agent at every one of its ticks, asleep or not, so it may keep state (a clock, an integrator) and
 * send events. A {@link Schedule#WHEN_AWAKE} evaluator is ticked only for agents that are awake
 * that tick: it promises that its outputs are a function of the agent, the tick and the world alone
 * (not of how often it was ticked before) and that it sends nothing, so skipping it for a sleeping
 * agent cannot be observed (docs/SEMANTICS.md section 11).
 */
public abstract class Evaluator extends Node {
    /** When an evaluator must be ticked. */
    public enum Schedule {
        /** At every tick of every running agent. */
        EVERY_TICK,
        /** Only at ticks where the agent is awake; outputs depend on nothing but agent, tick and world. */
        WHEN_AWAKE
    }

    private final Schedule schedule;

    protected Evaluator(NodeConfig config) {
        this(config, Schedule.EVERY_TICK);
    }

    protected Evaluator(NodeConfig config, Schedule schedule) {
        super(config);
        this.schedule = schedule;
    }

    public final Schedule schedule() {
        return schedule;
    }

    public void treeStart(NodeContext ctx, int[] rows, int from, int to) {
    }

    public abstract void tick(NodeContext ctx, int[] rows, int from, int to);

    /**
     * {@link #tick} for the contiguous rows {@code [rowFrom, rowTo)}: the runtime calls this instead
     * when the agents to tick are exactly a range of rows (a chunk in which every agent runs). The
     * default builds the row list and calls {@link #tick}; an evaluator whose work is a plain loop
     * over its columns should override it with a counted loop over the rows, which the JIT can
     * unroll and vectorize.
     */
    public void tickRange(NodeContext ctx, int rowFrom, int rowTo) {
        tick(ctx, ctx.rowsBetween(rowFrom, rowTo), 0, rowTo - rowFrom);
    }

    public void treeStop(NodeContext ctx, int[] rows, int from, int to) {
    }
}
