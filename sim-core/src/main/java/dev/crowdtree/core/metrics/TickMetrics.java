package dev.crowdtree.core.metrics;

import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * HdrHistogram recorders for tick durations and per-phase durations, in nanoseconds, with a total
 * histogram per series (for the end-of-run summary) and an interval histogram (for periodic
 * progress lines, reset by {@link #resetInterval()}).
 *
 * <p>Histograms track 1 ns .. 60 s with 2 significant digits (1% precision); values above the range
 * are clamped to it, so a single pathological stall cannot throw. Recording allocates nothing.
 * THREADING: simulation thread only.
 */
public final class TickMetrics {
    private static final long HIGHEST = 60_000_000_000L;
    private static final int DIGITS = 2;

    private final String[] names;
    private final Histogram[] total;
    private final Histogram[] interval;

    /** @param phases names of the phases; series 0 is always the whole tick, named "tick" */
    public TickMetrics(String... phases) {
        names = new String[phases.length + 1];
        names[0] = "tick";
        System.arraycopy(phases, 0, names, 1, phases.length);
        total = new Histogram[names.length];
        interval = new Histogram[names.length];
        for (int i = 0; i < names.length; i++) {
            total[i] = new Histogram(1, HIGHEST, DIGITS);
            interval[i] = new Histogram(1, HIGHEST, DIGITS);
        }
    }

    /** Phase names, without the implicit "tick" series. */
    public List<String> phaseNames() {
        return Arrays.asList(names).subList(1, names.length);
    }

    /** Records one whole tick. */
    public void recordTick(long nanos) {
        record(0, nanos);
    }

    /** Records one run of phase {@code phase} (0-based, in constructor order). */
    public void recordPhase(int phase, long nanos) {
        record(phase + 1, nanos);
    }

    private void record(int series, long nanos) {
        long v = Math.max(1, Math.min(HIGHEST, nanos));
        total[series].recordValue(v);
        interval[series].recordValue(v);
    }

    /** All ticks so far. */
    public Histogram ticks() {
        return total[0];
    }

    /** Ticks since the last {@link #resetInterval()}. */
    public Histogram intervalTicks() {
        return interval[0];
    }

    /** All runs of phase {@code phase} so far. */
    public Histogram phase(int phase) {
        return total[phase + 1];
    }

    /** Starts a new interval for the interval histograms. */
    public void resetInterval() {
        for (Histogram h : interval) {
            h.reset();
        }
    }

    /** Clears everything, e.g. after warm-up. */
    public void reset() {
        resetInterval();
        for (Histogram h : total) {
            h.reset();
        }
    }

    /**
     * A table with one line per series: count, mean, p50, p90, p99, p99.9 and max in milliseconds,
     * and each phase's share of the summed phase time.
     */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-14s %8s %9s %9s %9s %9s %9s %9s %7s%n",
                "series (ms)", "count", "mean", "p50", "p90", "p99", "p99.9", "max", "share"));
        double phaseSum = 0;
        for (int i = 1; i < names.length; i++) {
            phaseSum += total[i].getMean() * total[i].getTotalCount();
        }
        for (int i = 0; i < names.length; i++) {
            Histogram h = total[i];
            String share = "";
            if (i > 0 && phaseSum > 0) {
                share = String.format(Locale.ROOT, "%6.1f%%", 100.0 * h.getMean() * h.getTotalCount() / phaseSum);
            }
            sb.append(String.format(Locale.ROOT, "%-14s %8d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %7s%n",
                    names[i], h.getTotalCount(), ms(h.getMean()), ms(h.getValueAtPercentile(50)),
                    ms(h.getValueAtPercentile(90)), ms(h.getValueAtPercentile(99)),
                    ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue()), share));
        }
        return sb.toString();
    }

    private static double ms(double nanos) {
        return nanos / 1e6;
    }
}
