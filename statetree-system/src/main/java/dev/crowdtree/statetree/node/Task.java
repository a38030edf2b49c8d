package dev.crowdtree.statetree.node;

/**
 * A task: runs while its state is active. {@link #enterState} and {@link #exitState} are called per
 * agent when the state is entered or exited (transitions are rare); {@link #tick} is a batch kernel
 * over every agent whose active path contains the task's state, called once per (task, group of
 * agents), never per agent.
 *
 * <p>A task that completes calls {@link NodeContext#succeed(int)} or {@link NodeContext#fail(int)}
 * for that row during {@link #tick}; the first task to complete in root-to-leaf order completes the
 * state, and tasks after it are not ticked that tick.
 *
 * <p>Contract for implementations: keep configuration in final fields, keep per-agent state in
 * declared fields (slots), allocate nothing, write only the given rows.
 */
public abstract class Task extends Node {
    private final boolean ticks;

    /**
     * @param config the resolved configuration
     * @param ticks  whether {@link #tick} does anything; when false the runtime never calls it
     */
    protected Task(NodeConfig config, boolean ticks) {
        super(config);
        this.ticks = ticks;
    }

    /** Whether the runtime must call {@link #tick}. */
    public final boolean ticks() {
        return ticks;
    }

    /**
     * The state is entered for the agent in {@code row} ({@link NodeContext#changeType()} says
     * whether it was already active).
     *
     * @return {@link RunStatus#RUNNING}, or {@link RunStatus#SUCCEEDED} / {@link RunStatus#FAILED}
     *         to complete the state at once (FAILED also stops entering deeper states)
     */
    public byte enterState(NodeContext ctx, int row) {
        return RunStatus.RUNNING;
    }

    /** Advances {@code rows[from .. to-1]} by {@link NodeContext#dt()}. */
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
    }

    /** The state is exited for the agent in {@code row}. */
    public void exitState(NodeContext ctx, int row) {
    }
}
