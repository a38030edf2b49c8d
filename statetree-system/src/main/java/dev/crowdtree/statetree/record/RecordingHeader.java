package dev.crowdtree.statetree.record;

/**
 * What a recording is of: its {@code kind} ({@code "crowd"} for {@code run --record},
 * {@code "scenario"} for a scenario's run), the producer's metadata as free JSON text (agents,
 * seed, dt, workers, tree, version: whatever the producer writes), and the ticks between periodic
 * snapshots ({@code snapshotEvery} >= 1).
 */
public record RecordingHeader(String kind, String metadataJson, int snapshotEvery) {
    /**
     * Checks the header.
     *
     * @throws IllegalArgumentException for a null kind or metadata, or {@code snapshotEvery} below 1
     */
    public RecordingHeader {
        if (kind == null || metadataJson == null) {
            throw new IllegalArgumentException("a recording header needs a kind and metadata (\"{}\" for none)");
        }
        if (snapshotEvery < 1) {
            throw new IllegalArgumentException("snapshotEvery = " + snapshotEvery + " is out of range; valid range is 1.."
                    + Integer.MAX_VALUE);
        }
    }
}
