package dev.crowdtree.bench.compare;

/**
 * One implementation of a {@link Variant}'s logic running {@code agents} agents (ids
 * {@code 0 .. agents-1}). The harness calls {@link #start()} once (tick 0), then for each tick 1, 2,
 * ... {@link #sendEvent(int)} for the host's events of that tick ({@link Logic#hostEvents}, sleepy
 * variant only) and {@link #tick(long, float)}. THREADING: one calling thread.
 */
public interface Population extends AutoCloseable {
    /** Tick 0: every agent starts (evaluator start, first selection, first delays drawn). */
    void start();

    /** One tick of every agent. */
    void tick(long tick, float dt);

    /**
     * Sends the variant's host event ({@link Logic#S_EVENT}, sleepy variant) to {@code agent}: seen
     * by the next {@link #tick} (docs/SEMANTICS.md section 8), where it fires the root's
     * {@code onEvent} transition unless the agent's leaf completes in that tick (its completion
     * transition is checked first), and is gone after that tick either way. Sending it twice before
     * one tick is the same as once.
     *
     * @throws UnsupportedOperationException for a variant without host events
     */
    default void sendEvent(int agent) {
        throw new UnsupportedOperationException("this population takes no host events");
    }

    /**
     * Agents that were awake in the last {@link #tick} ({@code StateTreeRuntime.awakeLastTick()}),
     * for implementations that can tell; -1 for the others.
     */
    default int awakeLastTick() {
        return -1;
    }

    /**
     * Writes each agent's active leaf as our compiled tree's state id into {@code out[agent]} (-1 for
     * an agent whose tree is not running), so every implementation can be compared state for state.
     */
    void states(int[] out);

    /** Bytes of per-agent state-tree instance data, where the implementation can tell; else -1. */
    default int instanceBytesPerAgent() {
        return -1;
    }

    @Override
    void close();
}
