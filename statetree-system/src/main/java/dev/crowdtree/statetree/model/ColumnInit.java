package dev.crowdtree.statetree.model;

import dev.crowdtree.core.random.CounterRng;

/**
 * The initial value of one host column for one agent: a pure function of the run's seed, the
 * agent's id and its spawn index (the n-th agent spawned; in a fresh world the same as its id), so
 * that the same seed gives the same world on any number of workers, in one process or split into
 * regions. Converted to the column's type when stored (a float column takes {@code (float) value}).
 *
 * <p>Allocation: an implementation must not allocate (it runs once per agent at spawn).
 * THREADING: called on the simulation thread; keep it stateless.
 */
@FunctionalInterface
public interface ColumnInit {
    /** The value of the column for agent {@code agent}, the {@code spawnIndex}-th spawned, with seed {@code seed}. */
    double initial(long seed, int agent, int spawnIndex);

    /** The same value for every agent. */
    static ColumnInit constant(double value) {
        return (seed, agent, spawnIndex) -> value;
    }

    /**
     * A value uniform in [{@code min}, {@code max}), drawn from the counter-based generator with
     * {@code stream} (use a different stream per column): {@code CounterRng.range(min, max, seed,
     * agent, 0, stream, 0)}.
     */
    static ColumnInit uniform(float min, float max, int stream) {
        return (seed, agent, spawnIndex) -> CounterRng.range(min, max, seed, agent, 0, stream, 0);
    }
}
