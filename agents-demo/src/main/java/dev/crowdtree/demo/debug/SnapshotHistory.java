package dev.crowdtree.demo.debug;

import java.util.TreeMap;

/**
 * The snapshots a live session keeps for time travel: one every few ticks, for the last
 * {@code ticks} ticks, at most {@code maxBytes} in all (the oldest go first). The oldest is kept
 * while it is the only one at or before the start of the window, so every tick of the window has a
 * snapshot before it. THREADING: the session thread only.
 */
final class SnapshotHistory {
    private final TreeMap<Long, byte[]> byTick = new TreeMap<>();
    private final int ticks;
    private final long maxBytes;
    private long bytes;

    SnapshotHistory(int ticks, long maxBytes) {
        this.ticks = ticks;
        this.maxBytes = maxBytes;
    }

    boolean has(long tick) {
        return byTick.containsKey(tick);
    }

    boolean isEmpty() {
        return byTick.isEmpty();
    }

    /** Keeps the snapshot of {@code tick}, then drops the oldest beyond the bounds; {@code head} is the furthest tick run. */
    void keep(long tick, byte[] snapshot, long head) {
        byte[] old = byTick.put(tick, snapshot);
        bytes += snapshot.length - (old == null ? 0 : old.length);
        long from = head - ticks;
        while (byTick.size() > 1 && (byTick.firstKey() < from && byTick.higherKey(byTick.firstKey()) <= from
                || bytes > maxBytes)) {
            bytes -= byTick.pollFirstEntry().getValue().length;
        }
    }

    /** The oldest snapshot's tick. */
    long first() {
        return byTick.firstKey();
    }

    /** The latest snapshot before {@code tick}, or the oldest when none is. */
    long before(long tick) {
        Long s = byTick.lowerKey(tick);
        return s != null ? s : byTick.firstKey();
    }

    byte[] at(long tick) {
        return byTick.get(tick);
    }
}
