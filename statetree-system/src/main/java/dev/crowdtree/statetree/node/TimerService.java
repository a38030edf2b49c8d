package dev.crowdtree.statetree.node;

/**
 * Where {@link NodeContext#startTimer} and {@link NodeContext#startTickTimer} go. Each runtime keeps
 * timers its own way (the reference interpreter counts them down every tick, the batched runtime
 * keeps a due tick in a per-chunk timer wheel) and must make them run out on the same tick.
 *
 * @hidden
 */
public interface TimerService {
    /** Starts (or restarts) task {@code task}'s SECONDS timer for the agent in {@code row}. */
    void startTimer(int task, int row, float seconds);

    /** Starts (or restarts) task {@code task}'s TICKS timer: it runs out on the {@code ticks}-th tick the task is reached. */
    void startTickTimer(int task, int row, int ticks);
}
