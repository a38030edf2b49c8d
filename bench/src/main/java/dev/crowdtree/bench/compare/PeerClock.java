package dev.crowdtree.bench.compare;

/**
 * What every agent object of a per-agent peer (gdx-ai's state machines and behavior trees) reads:
 * the logic, the seed, the current tick and dt, shared by all agents of a population and set by it
 * before each tick.
 */
final class PeerClock {
    final Logic logic;
    final long seed;
    long tick;
    float dt;

    PeerClock(Logic logic, long seed, long initialTick) {
        this.logic = logic;
        this.seed = seed;
        this.tick = initialTick;
    }
}
