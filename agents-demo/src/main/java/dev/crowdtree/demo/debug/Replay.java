package dev.crowdtree.demo.debug;

import java.util.List;

/** What a session replaying a recording reads from it: its extent, its snapshots and their world hashes. */
interface Replay {
    /** The first tick recorded (the start snapshot is of the tick before it). */
    long firstTick();

    long lastTick();

    /** The ticks of the periodic snapshots (not the start). */
    List<Long> snapshotTicks();

    /** The latest snapshot tick at or before {@code tick}, or {@code firstTick() - 1} (the start). */
    long snapshotTickAtOrBefore(long tick);

    /** The snapshot of tick {@code snapshotTick} (the start for {@code firstTick() - 1}). */
    byte[] snapshot(long snapshotTick);

    /** The world hash recorded with a periodic snapshot, or after the last tick. */
    long worldHashAt(long snapshotTick);
}
