package dev.crowdtree.demo.cluster;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a cluster run gave ({@link ClusterRun#run}). */
public final class ClusterResult {
    public long worldHash;
    public long agents;
    public int ticks;
    public long wallNanos;
    public long setupNanos;
    public List<String> accepted = new ArrayList<>();
    public List<String> refused = new ArrayList<>();
    public Map<String, List<Integer>> plan = new LinkedHashMap<>();
    public final Histogram tickMicros = new Histogram(3_600_000_000L, 3);
    /** The ticks that wrote a checkpoint (also in {@link #tickMicros}). */
    public final Histogram checkpointTickMicros = new Histogram(3_600_000_000L, 3);
    public final Histogram barrierMicros = new Histogram(3_600_000_000L, 3);
    public long haloBytes;
    public long migrationBytes;
    public long eventBytes;
    public long maxExchangeBytes;
    /** Bytes of sealed messages written to the exchange map for another member (regions on one member exchange in memory). */
    public long memberBytes;
    public int tickSamples;
    public long checkpointBytes;
    public int checkpoints;
    public List<String> recoveries = new ArrayList<>();
    /** The run's generation at the end: 1, and one more per recovery. */
    public long generation = 1;
    /**
     * Entries found in the maps at the end that a fenced member (or one of an older generation)
     * wrote after the recovery that fenced it; 0 unless fencing failed.
     */
    public long staleEntries;
    /** The model's counters summed over the regions ({@code RegionalSim.counters}). */
    public long[] counters = new long[0];
    public long droppedEvents;
    public long nodeFailures;
    public long[] occupancy = new long[0];
}
