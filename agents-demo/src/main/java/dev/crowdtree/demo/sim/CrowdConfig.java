package dev.crowdtree.demo.sim;

import dev.crowdtree.core.util.Checks;

/**
 * Parameters of a crowd simulation. Every value is checked; messages name the option, the value
 * given and the valid range.
 *
 * @param agents          number of agents, 1..16,000,000
 * @param seed            seed of every random draw
 * @param workers         worker threads, 1..256
 * @param dt              seconds per tick
 * @param worldSize       side of the square world in metres
 * @param predators       moving threats
 * @param fires           static threats that ignite and burn out
 * @param smartObjects    benches / feeding spots
 * @param slotsPerObject  agents one smart object serves at once
 * @param cellSize        spatial hash cell side in metres
 */
public record CrowdConfig(int agents, long seed, int workers, float dt, float worldSize, int predators, int fires,
                          int smartObjects, int slotsPerObject, float cellSize) {

    public CrowdConfig {
        Checks.inRange("agents", agents, 1, 16_000_000);
        Checks.inRange("workers", workers, 1, 256);
        Checks.positiveFinite("dt", dt);
        Checks.positiveFinite("worldSize", worldSize);
        Checks.inRange("predators", predators, 0, 1000);
        Checks.inRange("fires", fires, 0, 1000);
        Checks.inRange("smartObjects", smartObjects, 0, 1_000_000);
        Checks.inRange("slotsPerObject", slotsPerObject, 1, 64);
        Checks.positiveFinite("cellSize", cellSize);
        if (worldSize / cellSize > 8192) {
            throw new IllegalArgumentException("cellSize = " + cellSize + " is too small for worldSize = " + worldSize
                    + "; at most 8192 cells per side (cellSize >= " + worldSize / 8192 + ")");
        }
    }

    /** The defaults: 100,000 agents in 2 km x 2 km at 30 Hz, 6 predators, 3 fires, 2,000 benches of 4 slots. */
    public static CrowdConfig defaults() {
        return new CrowdConfig(100_000, 1, Runtime.getRuntime().availableProcessors(), 1f / 30f, 2000f, 6, 3,
                2000, 4, 4f);
    }

    public CrowdConfig withAgents(int n) {
        return new CrowdConfig(n, seed, workers, dt, worldSize, predators, fires, smartObjects, slotsPerObject, cellSize);
    }

    public CrowdConfig withSeed(long s) {
        return new CrowdConfig(agents, s, workers, dt, worldSize, predators, fires, smartObjects, slotsPerObject, cellSize);
    }

    public CrowdConfig withWorkers(int w) {
        return new CrowdConfig(agents, seed, w, dt, worldSize, predators, fires, smartObjects, slotsPerObject, cellSize);
    }

    public CrowdConfig withDt(float d) {
        return new CrowdConfig(agents, seed, workers, d, worldSize, predators, fires, smartObjects, slotsPerObject, cellSize);
    }

    /** Spatial hash cells per side of the (fixed-size) world; more agents mean denser cells. */
    public int cellsPerSide() {
        return (int) Math.ceil(worldSize / cellSize);
    }
}
