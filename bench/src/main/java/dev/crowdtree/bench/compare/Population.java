package dev.crowdtree.bench.compare;

/**
 * One implementation of a {@link Variant}'s logic running {@code agents} agents (ids
 * {@code 0 .. agents-1}). The harness calls {@link #start()} once (tick 0), then
 * {@link #tick(long, float)} with ticks 1, 2, ... THREADING: one calling thread.
 */
public interface Population extends AutoCloseable {
    /** Tick 0: every agent starts (evaluator start, first selection, first delays drawn). */
    void start();

    /** One tick of every agent. */
    void tick(long tick, float dt);

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
