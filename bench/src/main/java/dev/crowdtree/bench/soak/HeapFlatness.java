package dev.crowdtree.bench.soak;

import java.util.Arrays;

/**
 * Whether a series of heap-after-GC samples is flat: the soak's leak check, a pure function of the
 * numbers.
 *
 * <p>Warm-up: the first {@value #WARMUP_PERCENT}% of the samples (rounded up, at least one when
 * there are three or more) are left out: they come while the JIT compiles, buffers reach their
 * high-water marks and the population's first transitions settle. Noise: the first and last values
 * compared are medians of a window of samples (a fifth of the samples after warm-up, between 1 and
 * {@value #MAX_WINDOW}), so one sample caught with a buffer momentarily larger does not decide.
 * {@code drift = (median of the last window - median of the first window) / median of the first
 * window}; the series is flat when {@code |drift| <= tolerance}. A steady leak shows as a drift that
 * grows with the run's length; at least two samples after warm-up are needed to judge at all.
 */
final class HeapFlatness {
    /** Share of the samples, in percent, treated as warm-up. */
    static final int WARMUP_PERCENT = 10;
    /** Largest number of samples in each median window. */
    static final int MAX_WINDOW = 5;
    /** The soak's tolerance, in percent. */
    static final double TOLERANCE_PERCENT = 5.0;

    /**
     * The judgement of a series.
     *
     * @param samples      samples in the series
     * @param warmup       samples left out at the start
     * @param window       samples in each median window
     * @param first        the first sample after warm-up (bytes)
     * @param last         the last sample
     * @param min          the smallest sample after warm-up
     * @param max          the largest sample after warm-up
     * @param firstMedian  median of the first window after warm-up
     * @param lastMedian   median of the last window
     * @param driftPercent {@code (lastMedian - firstMedian) / firstMedian}, in percent (NaN when not judged)
     * @param flat         whether {@code |driftPercent| <= tolerance}
     * @param reason       why not flat, or why not judged; "" when flat
     */
    record Verdict(int samples, int warmup, int window, long first, long last, long min, long max,
                   long firstMedian, long lastMedian, double driftPercent, boolean flat, String reason) {
    }

    private HeapFlatness() {
    }

    /** Samples treated as warm-up out of {@code n}. */
    static int warmup(int n) {
        return n < 3 ? 0 : Math.max(1, (n * WARMUP_PERCENT + 99) / 100);
    }

    /** Judges {@code samples} (bytes, in order) against {@code tolerancePercent}. */
    static Verdict judge(long[] samples, double tolerancePercent) {
        int n = samples.length;
        int warm = warmup(n);
        int kept = n - warm;
        if (kept < 2) {
            long v = kept == 1 ? samples[n - 1] : 0;
            return new Verdict(n, warm, 0, v, v, v, v, v, v, Double.NaN, false,
                    "too few heap samples to judge (" + n + "; at least " + (warm + 2) + " are needed: use more ticks or a smaller --sample-every)");
        }
        long[] after = Arrays.copyOfRange(samples, warm, n);
        int window = Math.max(1, Math.min(MAX_WINDOW, kept / 5));
        long firstMedian = median(after, 0, window);
        long lastMedian = median(after, kept - window, kept);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long v : after) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double drift = firstMedian <= 0 ? Double.NaN : 100.0 * (lastMedian - firstMedian) / firstMedian;
        boolean flat = !Double.isNaN(drift) && Math.abs(drift) <= tolerancePercent;
        String reason = flat ? "" : Double.isNaN(drift) ? "no heap figure (0 bytes)"
                : String.format(java.util.Locale.ROOT, "heap after GC drifted %+.2f%%, more than %.0f%%", drift, tolerancePercent);
        return new Verdict(n, warm, window, after[0], after[kept - 1], min, max, firstMedian, lastMedian, drift, flat, reason);
    }

    /** The median of {@code v[from .. to-1]} (the lower middle one for an even count). */
    static long median(long[] v, int from, int to) {
        long[] s = Arrays.copyOfRange(v, from, to);
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }
}
