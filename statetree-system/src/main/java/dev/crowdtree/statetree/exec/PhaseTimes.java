package dev.crowdtree.statetree.exec;

import java.util.Arrays;

/**
 * Per-worker CPU nanoseconds per sub-phase of a tick ({@code StateTreeSystem.PHASES}), when timing is
 * on ({@link #on}, which the engine copies into each call's {@link TickFrame#timing}).
 * THREADING: a worker adds to its own counters during a phase; the rest is the simulation thread's.
 */
final class PhaseTimes {
    private final long[][] perWorker;
    boolean on;

    PhaseTimes(int workers, int phases) {
        perWorker = new long[workers][phases];
    }

    /** Worker {@code w}'s counters (a runner reads no clock when the frame says timing is off). */
    long[] of(int w) {
        return perWorker[w];
    }

    long[] sum() {
        long[] sum = new long[perWorker[0].length];
        for (long[] w : perWorker) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += w[i];
            }
        }
        return sum;
    }

    void reset() {
        for (long[] w : perWorker) {
            Arrays.fill(w, 0);
        }
    }
}
