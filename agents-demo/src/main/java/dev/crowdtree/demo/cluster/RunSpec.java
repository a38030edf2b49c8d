package dev.crowdtree.demo.cluster;

import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.RegionGrid;

import java.io.Serializable;

/**
 * What a member needs to build its regions of a run: the crowd's configuration (one worker per
 * region: a member steps its regions in parallel instead), the tree asset's text, and the region
 * count. Sent with every setup task.
 */
public record RunSpec(String runId, int agents, long seed, float dt, float worldSize, int predators, int fires,
                      int smartObjects, int slotsPerObject, float cellSize, String treeName, String treeText,
                      int regions) implements Serializable {

    public static RunSpec of(String runId, CrowdConfig c, String treeName, String treeText, int regions) {
        return new RunSpec(runId, c.agents(), c.seed(), c.dt(), c.worldSize(), c.predators(), c.fires(), c.smartObjects(),
                c.slotsPerObject(), c.cellSize(), treeName, treeText, regions);
    }

    public CrowdConfig config() {
        return new CrowdConfig(agents, seed, 1, dt, worldSize, predators, fires, smartObjects, slotsPerObject, cellSize);
    }

    public RegionGrid grid() {
        return new RegionGrid(regions, worldSize, cellSize);
    }
}
