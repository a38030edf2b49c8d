package dev.crowdtree.bench.soak;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

/**
 * The heap in use after a full GC: {@code System.gc()}, then {@code MemoryMXBean} heap used.
 *
 * <p>Why this and not the pools' post-GC figures ({@code MemoryPoolMXBean.getCollectionUsage},
 * {@code LastGcInfo}): on HotSpot {@code System.gc()} runs a full, stop-the-world collection of the
 * whole heap (with G1, the default, and Parallel; unless {@code -XX:+ExplicitGCInvokesConcurrent} or
 * {@code -XX:+DisableExplicitGC}) and returns when it is done, and nothing else allocates in between:
 * the soak's workers are parked between ticks and the simulation thread is here. The pools'
 * collection usage, by contrast, is per pool and per collector: a young collection refreshes eden's
 * and the survivors' figures but not the old generation's, so their sum mixes moments. The probe
 * counts the collectors' collections around the call and reports whether one ran
 * ({@link #lastCollected()}): a sample taken without one is not a post-GC figure and the soak says so.
 */
final class HeapProbe {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private boolean lastCollected = true;
    private boolean alwaysCollected = true;

    /** Heap bytes in use right after a full GC. */
    long heapAfterGc() {
        long before = collections();
        System.gc();
        long used = memory.getHeapMemoryUsage().getUsed();
        lastCollected = collections() > before;
        alwaysCollected &= lastCollected;
        return used;
    }

    /** Whether a collection ran for the last sample. */
    boolean lastCollected() {
        return lastCollected;
    }

    /** Whether a collection ran for every sample so far. */
    boolean alwaysCollected() {
        return alwaysCollected;
    }

    /** The collectors' names, for the header. */
    String collectorNames() {
        StringBuilder b = new StringBuilder();
        for (GarbageCollectorMXBean c : collectors) {
            b.append(b.length() == 0 ? "" : ", ").append(c.getName());
        }
        return b.toString();
    }

    private long collections() {
        long n = 0;
        for (GarbageCollectorMXBean c : collectors) {
            n += Math.max(0, c.getCollectionCount());
        }
        return n;
    }
}
