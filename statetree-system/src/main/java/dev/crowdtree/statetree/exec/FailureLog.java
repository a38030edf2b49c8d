package dev.crowdtree.statetree.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The node failures of a runtime (rule R1), in a deterministic order (tick, then chunk, then order
 * of occurrence): the first {@link #CAPACITY} are kept, the rest only counted, so a node that throws
 * for every agent every tick cannot exhaust memory.
 *
 * <p>THREADING: written by the simulation thread (the batched runtime merges the chunks' failures
 * after the barrier); read between ticks.
 */
public final class FailureLog {
    /** How many failures are kept. */
    public static final int CAPACITY = 1000;

    private final List<NodeFailure> kept = new ArrayList<>();
    private long total;

    /** An empty log. */
    public FailureLog() {
    }

    /**
     * Adds a failure (runtime use).
     *
     * @hidden
     */
    public void add(NodeFailure f) {
        total++;
        if (kept.size() < CAPACITY) {
            kept.add(f);
        }
    }

    /** The first {@link #CAPACITY} failures, oldest first. */
    public List<NodeFailure> kept() {
        return Collections.unmodifiableList(new ArrayList<>(kept));
    }

    /** How many failures there were, kept or not. */
    public long total() {
        return total;
    }
}
