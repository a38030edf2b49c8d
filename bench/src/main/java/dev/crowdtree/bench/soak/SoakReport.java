package dev.crowdtree.bench.soak;

import dev.crowdtree.statetree.exec.NodeFailure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The figures of a finished soak, its verdict ({@link #exitStatus()}) and its closing summary
 * ({@link #summary()}), whose lines are stable so that scripts and tests can read them.
 */
final class SoakReport {
    /** How many of the kept node failures the summary lists. */
    static final int LISTED_FAILURES = 10;

    long agentTicks;
    long wallNanos;
    /** Host activity and ticks, without the heap samples. */
    long tickNanos;
    long sampleNanos;
    long[] heapSamples = new long[0];
    boolean gcEverySample = true;
    long failures;
    List<NodeFailure> keptFailures = List.of();
    long droppedEvents;
    long expectedDrops;
    long events;
    long parameters;
    String parameter;
    long periods;
    long respawned;
    /** Of {@link #tickNanos}, the host's activity before the ticks. */
    long hostNanos;
    /** Bytes allocated by the simulation thread in the ticks and in the host activity, and by the workers; -1: unknown. */
    long simAllocated = -1;
    long hostAllocated = -1;
    long workerAllocated = -1;
    long ticks;
    String loadBefore = "?";
    String loadAfter = "?";

    /** The heap judgement of {@link #heapSamples}. */
    HeapFlatness.Verdict heap() {
        return HeapFlatness.judge(heapSamples, HeapFlatness.TOLERANCE_PERCENT);
    }

    /** Why the soak fails; empty when it passes. */
    List<String> problems() {
        List<String> p = new ArrayList<>();
        HeapFlatness.Verdict v = heap();
        if (!v.flat()) {
            p.add(v.reason());
        }
        if (!gcEverySample) {
            p.add("System.gc() did not run a collection for every sample, so the heap figures are not after a full GC"
                    + " (drop -XX:+DisableExplicitGC)");
        }
        if (failures > 0) {
            p.add(failures + " node failure" + (failures == 1 ? "" : "s"));
        }
        if (droppedEvents != expectedDrops) {
            p.add("dropped events " + droppedEvents + ", expected " + expectedDrops
                    + " (the events sent to despawned agents): the runtime lost or dropped other events");
        }
        return p;
    }

    /** 0 when the heap is flat within 5%, no node failed and only the expected events were dropped; else 1. */
    int exitStatus() {
        return problems().isEmpty() ? 0 : 1;
    }

    /** Agent-ticks per second of ticking (host activity included, heap samples not). */
    double rate() {
        return tickNanos <= 0 ? Double.NaN : agentTicks * 1e9 / tickNanos;
    }

    /** The closing summary, one figure per line. */
    String summary() {
        HeapFlatness.Verdict v = heap();
        StringBuilder b = new StringBuilder();
        b.append("== soak summary ==\n");
        line(b, "total agent-ticks: %,d", agentTicks);
        line(b, "wall time: %.1f s (ticking %.1f s, %d heap samples %.1f s)", wallNanos / 1e9, tickNanos / 1e9,
                heapSamples.length, sampleNanos / 1e9);
        line(b, "ns per agent-tick: %.2f (ticking time; the host activity before the ticks took %.2f s of it)",
                tickNanos / (double) Math.max(1, agentTicks), hostNanos / 1e9);
        line(b, "agent-ticks/s: %,.0f", rate());
        line(b, "10^11 agent-ticks would take %.1f h at this rate", 1e11 / rate() / 3600.0);
        line(b, "heap after GC: first %s, last %s, max %s, min %s (%d samples after a warm-up of %d)",
                mb(v.first()), mb(v.last()), mb(v.max()), mb(v.min()), v.samples() - v.warmup(), v.warmup());
        line(b, "heap drift: %+.2f%% (median of the last %d samples %s vs median of the first %d after warm-up %s)",
                v.driftPercent(), v.window(), mb(v.lastMedian()), v.window(), mb(v.firstMedian()));
        line(b, "flat within 5%%: %s", v.flat() && gcEverySample ? "yes" : "no");
        line(b, "node failures: %d", failures);
        for (int i = 0; i < Math.min(LISTED_FAILURES, keptFailures.size()); i++) {
            line(b, "  %s", keptFailures.get(i));
        }
        if (keptFailures.size() > LISTED_FAILURES) {
            line(b, "  ... (%d more kept, %d in all)", keptFailures.size() - LISTED_FAILURES, failures);
        }
        line(b, "dropped events: %d (expected %d: events sent to agents despawned before their tick)", droppedEvents, expectedDrops);
        line(b, "host activity: %,d events, %,d parameter values (%s), %,d tick periods, %,d agents despawned and respawned",
                events, parameters, parameter == null ? "the tree has none to set" : parameter, periods, respawned);
        if (simAllocated >= 0) {
            line(b, "allocated per tick: ticks %.1f B on the simulation thread and %.1f B on the workers; host activity %.1f B",
                    simAllocated / (double) Math.max(1, ticks), workerAllocated / (double) Math.max(1, ticks),
                    hostAllocated / (double) Math.max(1, ticks));
        }
        line(b, "load average before: %s, after: %s", loadBefore, loadAfter);
        List<String> p = problems();
        line(b, "result: %s", p.isEmpty() ? "PASS" : "FAIL (" + String.join("; ", p) + ")");
        return b.toString();
    }

    private static void line(StringBuilder b, String format, Object... args) {
        b.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

    /** Bytes as MB (10^6 bytes) with one decimal. */
    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
