package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.util.Arrays;

/**
 * What a runtime's last tick did, counted over the whole population (docs/SEMANTICS.md section 10,
 * "Counters"; {@link StateTreeRuntime#setRecording}): how many running agents sit in each state
 * (their active path's last state) after the tick, how often each transition fired, how often a
 * composite's rule fired one and the tree restarted from the root, and the node failures, dropped
 * and rejected events of the tick. The batched runtime counts per chunk inside its kernels and sums
 * the chunks in chunk order, so the numbers are the same on any number of workers, and the same as
 * the reference interpreter's.
 *
 * <p>Allocation: none after construction. THREADING: written by the runtime during a tick, read by
 * the simulation thread between ticks.
 */
public final class Recorder {
    private final CompiledStateTree tree;
    final long[] occupancy;
    final long[] fired;
    long compositeRules;
    long restarts;
    private long tick = -1;
    private long failures, dropped, rejected;
    private long failuresTotal, droppedTotal, rejectedTotal;

    public Recorder(CompiledStateTree tree) {
        this.tree = tree;
        this.occupancy = new long[tree.stateCount];
        this.fired = new long[tree.transitionCount];
    }

    /**
     * The batched runtime's counts of a tick: the chunks' occupancies and transitions, summed in chunk
     * order ({@link ChunkOutput}).
     */
    void add(ChunkOutput[] outputs, int chunks, boolean countedAll) {
        if (countedAll) {
            clearOccupancy(); // the chunks counted every row; else they counted what their transitions changed
        }
        for (int c = 0; c < chunks; c++) {
            ChunkOutput o = outputs[c];
            for (int s = 0; s < occupancy.length; s++) {
                occupancy[s] += o.occupancy[s];
            }
            for (int tr = 0; tr < fired.length; tr++) {
                fired[tr] += o.fired[tr];
            }
            compositeRules += o.compositeRules;
            restarts += o.restarts;
        }
    }

    /** Forgets the occupancy, before it is counted afresh. */
    public void clearOccupancy() {
        Arrays.fill(occupancy, 0);
    }

    /** One running agent whose active path ends at {@code state}. */
    public void countOccupancy(int state) {
        occupancy[state]++;
    }

    /**
     * One transition that fired: {@code transition} >= 0, or -1 for the restart from the root, or
     * any other negative value for a transition a composite's rule fired.
     */
    public void countFired(int transition) {
        if (transition >= 0) {
            fired[transition]++;
        } else if (transition == -1) {
            restarts++;
        } else {
            compositeRules++;
        }
    }

    // ---- for the host ----------------------------------------------------------------------------

    /** The tree counted. */
    public CompiledStateTree tree() {
        return tree;
    }

    // ---- for the runtimes ------------------------------------------------------------------------

    /** Starts the counts of a tick (the occupancy is kept: see {@link #clearOccupancy}). */
    public void beginTick() {
        Arrays.fill(fired, 0);
        compositeRules = 0;
        restarts = 0;
    }

    /**
     * Ends the counts of tick {@code tickNumber}: the node failures, dropped and rejected events are
     * what the runtime's running totals grew by since the last tick.
     */
    public void endTick(long tickNumber, long failuresNow, long droppedNow, long rejectedNow) {
        tick = tickNumber;
        failures = failuresNow - failuresTotal;
        dropped = droppedNow - droppedTotal;
        rejected = rejectedNow - rejectedTotal;
        failuresTotal = failuresNow;
        droppedTotal = droppedNow;
        rejectedTotal = rejectedNow;
    }

    /** The tick these counts are of (-1 before the first). */
    public long tick() {
        return tick;
    }

    /** Running agents whose active path ends at {@code state} after the tick. */
    public long occupancy(int state) {
        return occupancy[state];
    }

    /** Running agents on a path through {@code state} (it or a state below it ends the path) after the tick. */
    public long occupancyBelow(int state) {
        long n = 0;
        for (int s = state, end = tree.stateSubtreeEnd[state]; s < end; s++) {
            n += occupancy[s];
        }
        return n;
    }

    /** Running agents after the tick. */
    public long running() {
        return occupancyBelow(0);
    }

    /** How often transition {@code transition} fired in the tick (every round, every agent). */
    public long fired(int transition) {
        return fired[transition];
    }

    /** How often a composite's rule fired a transition in the tick (rules K4, K5). */
    public long compositeRules() {
        return compositeRules;
    }

    /** How often a tree restarted from the root in the tick (section 4). */
    public long restarts() {
        return restarts;
    }

    /** Node failures in the tick (rule R1; under {@code NodeErrorPolicy.ISOLATE}). */
    public long failures() {
        return failures;
    }

    /** Events dropped in the tick because an agent's list or a buffer was full. */
    public long droppedEvents() {
        return dropped;
    }

    /** Events an onEvent transition with payload fields rejected in the tick (rule E5). */
    public long rejectedEvents() {
        return rejected;
    }
    // ---- watched agents and per-tick detail (issue 21; wired into both runtimes by the runtimes) ----

    /**
     * Watches {@code agent}: from the next tick its explained trace lines (the lines {@code trace
     * --explain} prints for it, {@code why} lines included) are kept in a ring of the last
     * {@link #linesPerAgent()} lines.
     *
     * @throws IllegalArgumentException for a negative agent id, or when {@link #maxWatched()} agents
     *                                  are watched already
     */
    public void watch(int agent) {
        throw new UnsupportedOperationException("watching is not implemented yet");
    }

    /** Stops watching {@code agent} and forgets its lines. */
    public void unwatch(int agent) {
        throw new UnsupportedOperationException("watching is not implemented yet");
    }

    /** Whether {@code agent} is watched. */
    public boolean isWatched(int agent) {
        return false;
    }

    /** How many agents are watched. */
    public int watchedCount() {
        return 0;
    }

    /** The most agents that can be watched at once. */
    public int maxWatched() {
        return 0;
    }

    /** How many lines each watched agent's ring keeps. */
    public int linesPerAgent() {
        return 0;
    }

    /**
     * Sets the bounds of watching: at most {@code maxAgents} agents, {@code linesPerAgent} lines each.
     * Forgets every watched agent.
     */
    public void setWatchLimits(int maxAgents, int linesPerAgent) {
        throw new UnsupportedOperationException("watching is not implemented yet");
    }

    /** The watched agent's kept lines, oldest first (empty when it is not watched). */
    public java.util.List<String> trace(int agent) {
        return java.util.List.of();
    }

    /** How many times agents entered {@code state} in the tick (its {@code enter} lines, any change type). */
    public long entered(int state) {
        throw new UnsupportedOperationException("entered is not implemented yet");
    }

    /**
     * How many events tagged exactly {@code tag} arrived at an agent in the tick (became visible to
     * it, from the host or sent by a node); 0 for a tag the tree does not know.
     */
    public long eventsArrived(String tag) {
        throw new UnsupportedOperationException("eventsArrived is not implemented yet");
    }
}
