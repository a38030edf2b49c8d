package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.exec.Recorder;

/**
 * The firings per transition of the last {@value #TICKS} ticks, for the tree's arrows: the last
 * tick's count and the mean per tick. THREADING: the session thread only.
 */
final class RateWindow {
    static final int TICKS = 10;

    private final long[][] fired;
    private int ticks;

    RateWindow(int transitions) {
        fired = new long[TICKS][transitions];
    }

    private RateWindow(long[][] fired, int ticks) {
        this.fired = fired;
        this.ticks = ticks;
    }

    /** Tick {@code k} ran: its firings. */
    void record(long k, Recorder r) {
        long[] w = fired[slot(k)];
        for (int tr = 0; tr < w.length; tr++) {
            w[tr] = r.fired(tr);
        }
        ticks = Math.min(TICKS, ticks + 1);
    }

    /** Forgets every tick (after a restore). */
    void clear() {
        ticks = 0;
    }

    /** Whether a tick is counted. */
    boolean isEmpty() {
        return ticks == 0;
    }

    /** Firings of {@code tr} in tick {@code k}, the last recorded. */
    long last(long k, int tr) {
        return ticks == 0 ? 0 : fired[slot(k)][tr];
    }

    /** Mean firings of {@code tr} per tick over the ticks counted up to {@code k}, to 3 decimals. */
    double mean(long k, int tr) {
        if (ticks == 0) {
            return 0.0;
        }
        long sum = 0;
        for (int i = 0; i < ticks; i++) {
            sum += fired[slot(k - i)][tr];
        }
        return Math.round(1000.0 * sum / ticks) / 1000.0;
    }

    RateWindow copy() {
        long[][] f = new long[TICKS][];
        for (int i = 0; i < TICKS; i++) {
            f[i] = fired[i].clone();
        }
        return new RateWindow(f, ticks);
    }

    /** Puts back what {@link #copy} saved. */
    void restore(RateWindow saved) {
        for (int i = 0; i < TICKS; i++) {
            System.arraycopy(saved.fired[i], 0, fired[i], 0, fired[i].length);
        }
        ticks = saved.ticks;
    }

    private static int slot(long k) {
        return (int) Math.floorMod(k, (long) TICKS);
    }
}
