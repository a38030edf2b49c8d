package dev.crowdtree.demo.sim;

/**
 * The agents awake in the StateTree phase, tick after tick: mean, fewest and most, for the run's
 * summary. Simulation thread.
 */
final class AwakeStats {
    private long sum;
    private long ticks;
    private int min = Integer.MAX_VALUE;
    private int max;

    /** One tick's count. */
    void record(int awake) {
        sum += awake;
        ticks++;
        min = Math.min(min, awake);
        max = Math.max(max, awake);
    }

    /** The mean over the ticks recorded (0 before the first). */
    double mean() {
        return ticks == 0 ? 0 : (double) sum / ticks;
    }

    /** The fewest in one tick (0 before the first). */
    int min() {
        return ticks == 0 ? 0 : min;
    }

    /** The most in one tick. */
    int max() {
        return max;
    }

    /** Snapshot support: sum, ticks, min, max. */
    long[] save() {
        return new long[] {sum, ticks, min, max};
    }

    /** Snapshot support: the values {@link #save} gave, from {@code from} on in {@code c}. */
    void restore(long[] c, int from) {
        sum = c[from];
        ticks = c[from + 1];
        min = (int) c[from + 2];
        max = (int) c[from + 3];
    }
}
