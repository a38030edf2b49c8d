package dev.crowdtree.core.metrics;

import java.lang.management.ManagementFactory;
import java.util.function.IntConsumer;

/**
 * Checks that a simulation's steady ticks allocate nothing, with the JVM's per-thread allocation
 * counters ({@code com.sun.management.ThreadMXBean}): it runs windows of ticks and looks for one in
 * which neither the calling (simulation) thread nor any worker allocated a byte.
 *
 * <p>Why windows and not one measurement: besides real per-tick allocation, the JVM itself allocates
 * now and then on a running thread (re-materializing objects the JIT had eliminated when it
 * deoptimizes a method, resolving a class the first time a rare path runs), and a buffer may reach
 * its high-water mark late. Those happen once; an allocation in every tick shows in every window, so
 * it still fails.
 *
 * <p>THREADING: call from the simulation thread, between ticks. Allocation: none inside a window.
 */
public final class AllocationWindows {
    private AllocationWindows() {
    }

    /** Whether this JVM can count allocated bytes per thread (it turns the counting on if so). */
    public static boolean supported() {
        com.sun.management.ThreadMXBean mx = mx();
        if (!mx.isThreadAllocatedMemorySupported()) {
            return false;
        }
        mx.setThreadAllocatedMemoryEnabled(true);
        return true;
    }

    /**
     * Runs up to {@code windows} windows of {@code ticks} calls of {@code tick} (numbered from 0 across
     * windows) and stops at the first one in which the calling thread and the threads
     * {@code workerIds} allocated nothing. Returns {@code ""} then; otherwise what the last window
     * allocated, per thread, for the failure message.
     */
    public static String findClean(long[] workerIds, int windows, int ticks, IntConsumer tick) {
        if (windows < 1 || ticks < 1) {
            throw new IllegalArgumentException("windows and ticks must be >= 1, got " + windows + " and " + ticks);
        }
        com.sun.management.ThreadMXBean mx = mx();
        String last = "";
        int n = 0;
        for (int window = 0; window < windows; window++) {
            long[] before = workerIds.length == 0 ? new long[0] : mx.getThreadAllocatedBytes(workerIds);
            long self = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ticks; i++) {
                tick.accept(n++);
            }
            long selfAfter = mx.getCurrentThreadAllocatedBytes();
            long[] after = workerIds.length == 0 ? new long[0] : mx.getThreadAllocatedBytes(workerIds);
            StringBuilder sb = new StringBuilder();
            if (selfAfter != self) {
                sb.append("simulation thread allocated ").append(selfAfter - self).append(" B; ");
            }
            for (int w = 0; w < workerIds.length; w++) {
                if (after[w] != before[w]) {
                    sb.append("worker ").append(w + 1).append(" allocated ").append(after[w] - before[w]).append(" B; ");
                }
            }
            if (sb.length() == 0) {
                return "";
            }
            last = "window " + window + " of " + windows + " (" + ticks + " ticks): " + sb;
        }
        return last;
    }

    private static com.sun.management.ThreadMXBean mx() {
        return (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }
}
