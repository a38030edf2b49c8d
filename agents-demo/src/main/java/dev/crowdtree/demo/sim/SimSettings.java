package dev.crowdtree.demo.sim;

import dev.crowdtree.core.util.Checks;

/**
 * What every simulation is run with, whatever its model: agents, seed, worker threads and seconds
 * per tick. Every value is checked; messages name the option, the value and the valid range.
 */
public record SimSettings(int agents, long seed, int workers, float dt) {
    public SimSettings {
        Checks.inRange("agents", agents, 1, 16_000_000);
        Checks.inRange("workers", workers, 1, 256);
        Checks.positiveFinite("dt", dt);
    }

    public SimSettings withWorkers(int w) {
        return new SimSettings(agents, seed, w, dt);
    }
}
