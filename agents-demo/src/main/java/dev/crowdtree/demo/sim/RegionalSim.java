package dev.crowdtree.demo.sim;

import java.io.DataInputStream;
import java.io.IOException;

/**
 * A simulation that runs as one region of a split world ({@link Region}): what the region's exchange
 * with its neighbours needs of the model beyond the agents' columns and events, which {@link Region}
 * moves itself. The crowd ({@link CrowdSim}) exchanges smart-object releases and a halo of its agents
 * in the grid cells a border cuts; a declared model ({@link ModelSim}) a halo of its agents within
 * its reach of the border, with its shared columns.
 *
 * <p>THREADING: the thread stepping the region.
 */
public interface RegionalSim extends Simulation {
    /** Where a release of a world object owned by another region goes. */
    @FunctionalInterface
    interface ReleaseSink {
        void release(int destRegion, int object) throws IOException;
    }

    /** Hands the releases of objects owned by other regions made in the last tick to {@code sink}, and forgets them. */
    default void takeReleases(ReleaseSink sink) throws IOException {
    }

    /** A release of {@code object} for this region: applied when this region owns it, else returns false (passed on). */
    default boolean acceptRelease(int object) {
        return false;
    }

    /** Forgets the halo of the last tick. */
    void clearHalo();

    /** Reads one halo record of agent {@code agent} (its id already read) from {@code in}, sent by region {@code owner}. */
    void readHalo(DataInputStream in, int agent, int owner) throws IOException;

    /** Writes, for each neighbour {@code neighbours[i]}, the own agents its halo needs into {@code halo[i]}, each starting with its id. */
    void writeHalo(RegionWire.Section[] halo, int[] neighbours) throws IOException;

    /**
     * The region's parts of the run's world hash, each independent of which region holds what: the
     * sum of its agents' hashes by id, the model's shared state (the same in every region) and the
     * sum of what it owns besides agents ({@link Region#worldHash}).
     */
    long[] hashParts();

    /** The model's counters, summed over the regions of a run (the crowd: alarms heard, smart-object slots in use). */
    long[] counters();
}
