package dev.crowdtree.statetree.node;

/**
 * The runtime's side of a {@link NodeContext}: whoever creates the control owns the context and is
 * the only one who can bind its data, time and completion reporting; node kernels receive the
 * context alone and see none of this. Both runtimes (the batched one and the reference interpreter)
 * keep one control per worker.
 *
 * <p>THREADING: confined to the worker that owns it, like its context.
 *
 * @hidden
 */
public final class ContextControl {
    private final NodeContext ctx = new NodeContext();

    /** A new context, for one worker of a runtime. */
    public ContextControl() {
    }

    /** The context this control binds, to hand to node kernels. */
    public NodeContext context() {
        return ctx;
    }

    /** The host's column arrays by column handle and the bound externals by index (shared arrays). */
    public void bindHost(Object[] columnArrays, Object[] externals) {
        ctx.bindHost(columnArrays, externals);
    }

    /** The per-agent slot arrays by slot and type, and the agent id per row. */
    public void bindSlots(float[][] floatSlots, int[][] intSlots, byte[][] boolSlots, int[] agentIds) {
        ctx.bindSlots(floatSlots, intSlots, boolSlots, agentIds);
    }

    /** The seed, the tick number and the delta time the next calls see. */
    public void setTime(long seed, long tick, float dt) {
        ctx.setTime(seed, tick, dt);
    }

    /** The enter/exit description the next EnterState/ExitState calls see ({@link ChangeType}). */
    public void setChange(byte changeType, int currentState, int targetState) {
        ctx.setChange(changeType, currentState, targetState);
    }

    /**
     * Whether the next task calls are of a task not considered for completion (its
     * {@code succeed}/{@code fail}/{@code complete} calls are then ignored).
     */
    public void setBackground(boolean background) {
        ctx.background = background;
    }

    /** Why the states exited next are left ({@link NodeContext#exitStatus}). */
    public void setExitStatus(byte status) {
        ctx.setExitStatus(status);
    }

    /** Where events sent by nodes go. */
    public void setOutbox(EventOutbox outbox) {
        ctx.setOutbox(outbox);
    }

    /**
     * Where {@code {"event": ...}} bindings read the payload of the event being tested, and the
     * tree's payload fields: how many, and the id of {@code value} (the number payload), or -1.
     */
    public void setEvents(EventFields fields, int payloadFieldCount, int valueFieldId) {
        ctx.setEvents(fields, payloadFieldCount, valueFieldId);
    }

    /** Where timers started by tasks go. */
    public void setTimers(TimerService timers) {
        ctx.setTimers(timers);
    }

    /** The task whose tick runs next (for a transition request's source), or -1 after it. */
    public void setCallingTask(int task) {
        ctx.setCallingTask(task);
    }

    /** Where the context's transition requests go ({@link NodeContext#requestTransition}); null for none. */
    public void setRequests(TransitionRequests requests) {
        ctx.setRequests(requests);
    }

    /** The task whose enterState or onTimer runs next (and its timer kind), or -1. */
    public void setTask(int task, TimerKind timer) {
        ctx.setTask(task, timer);
    }

    /**
     * Directs task completions to {@code statusByRow[row - base]}; entries must be
     * {@link RunStatus#RUNNING} for rows that may still complete.
     */
    public void bindStatus(byte[] statusByRow, int base) {
        ctx.bindStatus(statusByRow, base);
    }

    /** Number of completions reported since the last {@link #resetCompletions()}. */
    public int completions() {
        return ctx.completions();
    }

    public void resetCompletions() {
        ctx.resetCompletions();
    }

    /** Makes sure {@code depth} scratch arrays of at least {@code size} rows exist. */
    public void ensureScratch(int depth, int size) {
        ctx.ensureScratch(depth, size);
    }
}
