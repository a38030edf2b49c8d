package dev.crowdtree.statetree.model;

import dev.crowdtree.core.schedule.Chunk;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A model's per-tick work beside its trees, as a Unreal Mass processor is: perception before the
 * trees read it, movement after the tasks chose where to go. Declared in a {@link ModelDefinition}
 * with a {@link HostSystemSpec} (its name, its stage, the columns it reads and writes), made once per
 * world by the spec's factory and bound to its columns ({@link #bind}) before the first tick.
 *
 * <p>One tick of a {@link ModelWorld}: the {@link Stage#BEFORE_TREES} systems in declaration order,
 * the StateTree phase, the {@link Stage#AFTER_TREES} systems in declaration order, then the world's
 * sync point. A system's share of a tick is {@link #beginTick} on the simulation thread, then
 * {@link #execute} for every chunk of rows on the world's workers (skipped when the system does not
 * override it), then {@link #endTick} on the simulation thread.
 *
 * <p>Determinism (same seed, same bits on any number of workers): {@link #execute} writes only the
 * rows of its chunk, and only the columns its spec declares as written; it reads other agents only
 * through the {@link Neighbourhood} (their state at the start of the tick), never another chunk's
 * rows; randomness comes from {@code CounterRng} keyed by the agent's id, never from the worker.
 * Chunk boundaries depend on the row count only. Events to agents go through
 * {@link ModelTick#sendEvent} in {@link #beginTick} or {@link #endTick} only.
 *
 * <p>Allocation: a steady tick should allocate nothing: resolve columns in {@link #bind}, read their
 * arrays ({@code data()}) once per call (a table's arrays are replaced when it grows).
 */
public interface HostSystem {
    /** When in a tick a system runs. */
    enum Stage {
        /** Before the StateTree phase: what the trees read this tick (perception, sensors). */
        BEFORE_TREES,
        /** After the StateTree phase: acting on what the tasks wrote (movement, resolution). */
        AFTER_TREES
    }

    /**
     * Resolves the columns ({@link SystemBinding#floats} and others: only those the spec declares) and
     * externals it uses. Called once per world, on the simulation thread, after the agents' columns
     * exist and before the first tick.
     */
    void bind(SystemBinding binding);

    /** Simulation thread, before this system's chunks of the tick. */
    default void beginTick(ModelTick tick) {
    }

    /**
     * Rows {@code chunk.begin() .. chunk.end()-1} of the agent table, on a worker thread: at most one
     * call per chunk per tick, chunks in any order and in parallel. {@code chunk.worker()} indexes
     * per-worker scratch; results must not depend on it.
     */
    default void execute(ModelTick tick, Chunk chunk) {
    }

    /** Simulation thread, after this system's chunks of the tick. */
    default void endTick(ModelTick tick) {
    }

    /**
     * Writes the system's own state beyond the agents' columns (a world-level object it moves, a
     * counter it keeps), for snapshots, recordings and cluster checkpoints; the default has none.
     * Between ticks, on the simulation thread.
     */
    default void save(DataOutputStream out) throws IOException {
    }

    /** Reads back what {@link #save} wrote (on a system bound to a world built with the same settings). */
    default void restore(DataInputStream in) throws IOException {
    }

    /**
     * A hash of that state, mixed into the world hash (0: none). In a run split into regions every
     * region has its own copy of each system; a system's state must then be the same in every region
     * (a function of the tick and the seed), as the crowd's threats are, or nothing.
     */
    default long stateHash() {
        return 0;
    }
}
