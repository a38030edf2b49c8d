package dev.crowdtree.statetree.exec;

import java.util.Arrays;

/** Per-worker CPU nanoseconds per sub-phase of a tick ({@link StateTreeSystem#PHASES}), when timing is on. */
final class PhaseTimes {
    private final long[][] perWorker;
    boolean on;

    PhaseTimes(int workers, int phases) {
        perWorker = new long[workers][phases];
    }

    /** Worker {@code w}'s counters, or null when timing is off (the runner then reads no clock). */
    long[] of(int w) {
        return on ? perWorker[w] : null;
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
