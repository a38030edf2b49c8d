package dev.crowdtree.statetree.model;

import dev.crowdtree.statetree.exec.StateTreeSystem;

/**
 * The tick being run, as a host system sees it: its number, its seconds, the run's seed, and the
 * way to send events to agents. One instance per {@link ModelWorld}, updated before each tick and
 * handed down to every system call, so nothing is allocated per tick.
 *
 * <p>THREADING: read from any worker during the tick; {@link #sendEvent} only on the simulation
 * thread ({@link HostSystem#beginTick}, {@link HostSystem#endTick}).
 */
public final class ModelTick {
    private final StateTreeSystem runtime;
    private final long seed;
    private long tick;
    private float dt;

    ModelTick(StateTreeSystem runtime, long seed) {
        this.runtime = runtime;
        this.seed = seed;
    }

    void set(long tick, float dt) {
        this.tick = tick;
        this.dt = dt;
    }

    /** The tick number (1 for the first tick after the start). */
    public long tick() {
        return tick;
    }

    /** Seconds this tick covers. */
    public float dt() {
        return dt;
    }

    /** The run's seed (for {@code CounterRng}, keyed by agent id and tick). */
    public long seed() {
        return seed;
    }

    /**
     * Sends event {@code tag} with a float payload (ignored unless {@code hasPayload}) to agent
     * {@code agent}; the trees see it in the next StateTree phase (this tick's, from a
     * {@link HostSystem.Stage#BEFORE_TREES} system). Simulation thread only.
     */
    public void sendEvent(int agent, String tag, float payload, boolean hasPayload) {
        runtime.sendEvent(agent, tag, payload, hasPayload);
    }
}
