package dev.crowdtree.statetree.node;

/**
 * The kind of a task's runtime-owned timer (declared with {@link NodeType.Builder#timer}).
 * docs/SEMANTICS.md section 3 defines how timers count down.
 */
public enum TimerKind {
    /** The task has no timer. */
    NONE,
    /**
     * Counts seconds: started with {@link NodeContext#startTimer}, it subtracts the agent's dt on every
     * tick its task is reached in TickTasks and runs out when the remaining time is {@code <= 0}.
     */
    SECONDS,
    /**
     * Counts ticks: started with {@link NodeContext#startTickTimer(int, int)} with n >= 1, it runs out
     * on the n-th tick its task is reached in TickTasks.
     */
    TICKS;

    /** Suffix of the int field that goes with a timer's float field. */
    public static final String DUE_SUFFIX = "$due";
}
