package dev.crowdtree.statetree.node;

/**
 * A task: runs while its state is active. {@link #enterState} and {@link #exitState} are called per
 * agent when the state is entered or exited (transitions are rare); {@link #tick} is a batch kernel
 * over every agent whose active path contains the task's state, called once per (task, group of
 * agents), never per agent.
 *
 * <p>A task that completes calls {@link NodeContext#succeed(int)} or {@link NodeContext#fail(int)}
 * for that row during {@link #tick} or {@link #onTimer}; the first task to complete in root-to-leaf
 * order completes the state, and tasks after it are not ticked that tick.
 *
 * <p>What a task needs from the scheduler is declared, not discovered: a task constructed with
 * {@code ticks = false} is never ticked, and a task whose type declares a timer
 * ({@link NodeType.Builder#timer}) is called back through {@link #onTimer} when the timer it started
 * runs out. An agent whose active states have no ticking task (and no {@code onTick} transition) does
 * no work at all between its timers and events: it sleeps (docs/SEMANTICS.md section 11). So a task
 * that only waits (a timeout, a cooldown) should use a timer instead of a tick.
 *
 * <p>Contract for implementations: keep configuration in final fields, keep per-agent state in
 * declared fields (slots), allocate nothing, write only the given rows.
 */
public abstract class Task extends Node {
    private final boolean ticks;
    private final TimerKind timer;
    private final int timerValueSlot;
    private final int timerDueSlot;

    /**
     * @param config the resolved configuration
     * @param ticks  whether {@link #tick} does anything; when false the runtime never calls it
     */
    protected Task(NodeConfig config, boolean ticks) {
        super(config);
        this.ticks = ticks;
        this.timer = config.timer();
        this.timerValueSlot = config.timerValueSlot();
        this.timerDueSlot = config.timerDueSlot();
    }

    /** Whether the runtime must call {@link #tick}. */
    public final boolean ticks() {
        return ticks;
    }

    /** The kind of this task's timer. */
    public final TimerKind timer() {
        return timer;
    }

    /**
     * The timer's float slot (runtime use), or -1.
     *
     * @hidden
     */
    public final int timerValueSlot() {
        return timerValueSlot;
    }

    /**
     * The timer's int slot (runtime use), or -1.
     *
     * @hidden
     */
    public final int timerDueSlot() {
        return timerDueSlot;
    }

    /**
     * The state is entered for the agent in {@code row} ({@link NodeContext#changeType()} says
     * whether it was already active). A task with a timer starts it here if it wants it; entering
     * clears a timer left from before.
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

    /**
     * The timer of {@code rows[from .. to-1]} ran out this tick, at this task's place in TickTasks
     * (root to leaf, declared order; before its {@link #tick} if it has one). The timer is stopped;
     * the task may complete the state or start the timer again. A timer whose {@code onTimer}
     * completed the state, and was not started again, stays run out: {@code onTimer} is called
     * again at every later tick the task is reached without being entered again, as a per-tick
     * countdown would report again (docs/SEMANTICS.md section 3.1, rule M1).
     */
    public void onTimer(NodeContext ctx, int[] rows, int from, int to) {
    }

    /** The state is exited for the agent in {@code row}. */
    public void exitState(NodeContext ctx, int row) {
    }
}
