package dev.crowdtree.bench.soak;

import dev.crowdtree.bench.compare.CompareHarness;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.exec.StateTreeSystem;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code java -jar bench/target/benchmarks.jar soak [options]}: a long run of one batched runtime
 * ({@link StateTreeSystem}, node error policy {@link NodeErrorPolicy#ISOLATE}) over
 * {@code compare}'s benchmark tree ({@link SoakTrees}) under host activity ({@link HostActivity}),
 * sampling the heap after a full GC ({@link HeapProbe}) every {@code --sample-every} ticks, and
 * judging at the end whether the heap stayed flat ({@link HeapFlatness}) and no node failed
 * ({@link SoakReport}). One progress line per sample on stderr; the summary on stdout.
 */
public final class SoakHarness {
    /** Seconds per tick (30 Hz), as in the other benchmarks. */
    static final float DT = 1f / 30f;
    /** Rows per chunk of the soak's world, as in {@code compare}. */
    static final int CHUNK = 4096;

    private SoakHarness() {
    }

    /**
     * Entry point of {@code soak}: parses {@code args}, runs, prints the summary on {@code out} and
     * progress on {@code err}.
     *
     * @return the exit status: 0 for a pass, 1 for a failed soak, 2 for a usage error
     */
    public static int main(String[] args, PrintStream out, PrintStream err) {
        SoakOptions o;
        try {
            o = SoakOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("soak: " + e.getMessage() + " (see: soak --help)");
            return 2;
        }
        if (o == null) {
            out.println(SoakOptions.usage());
            return 0;
        }
        return run(o, SoakTrees.compile(o.tree), SoakTrees.describe(o.tree), out, err).exitStatus();
    }

    /** Runs the soak of {@code o} with {@code tree} (described as {@code description} in the header). */
    static SoakReport run(SoakOptions o, CompiledStateTree tree, String description, PrintStream out, PrintStream err) {
        SoakReport r = new SoakReport();
        r.loadBefore = CompareHarness.loadAverage();
        int every = o.sampleEvery();
        int samples = (o.ticks + every - 1) / every;
        HeapProbe probe = new HeapProbe();
        out.printf(Locale.ROOT, "soak: tree %s, %,d agents, %,d ticks, %d worker%s, seed %d, node errors isolated%n",
                description, o.agents, o.ticks, o.workers, o.workers == 1 ? "" : "s", o.seed);
        out.printf(Locale.ROOT, "heap after GC every %,d ticks (%d samples, the first %d warm-up): System.gc() then MemoryMXBean "
                        + "heap used (collectors: %s; max heap %s); load average %s%n",
                every, samples, HeapFlatness.warmup(samples), probe.collectorNames(),
                SoakReport.mb(Runtime.getRuntime().maxMemory()), r.loadBefore);
        out.flush();
        long start = System.nanoTime();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        boolean countAlloc = threads.isThreadAllocatedMemorySupported();
        if (countAlloc) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, o.agents, o.seed, o.workers, CHUNK)) {
            sys.setNodeErrorPolicy(NodeErrorPolicy.ISOLATE);
            sys.startAll(0);
            HostActivity host = new HostActivity(sys, o.seed);
            r.parameter = host.parameter();
            long[] workerIds = sys.world().executor().workerThreadIds();
            long[] heap = new long[samples];
            int n = 0;
            long simAlloc = 0;
            long workerAlloc = 0;
            long[] workerBefore = countAlloc ? threads.getThreadAllocatedBytes(workerIds) : null;
            long lastSampleEnd = System.nanoTime();
            long hostAlloc = 0;
            for (long t = 1; t <= o.ticks; t++) {
                long a0 = countAlloc ? threads.getCurrentThreadAllocatedBytes() : 0;
                long h0 = System.nanoTime();
                host.beforeTick(t);
                r.hostNanos += System.nanoTime() - h0;
                long a1 = countAlloc ? threads.getCurrentThreadAllocatedBytes() : 0;
                sys.tickAll(t, DT);
                if (countAlloc) {
                    hostAlloc += a1 - a0;
                    simAlloc += threads.getCurrentThreadAllocatedBytes() - a1;
                }
                if (t % every != 0 && t != o.ticks) {
                    continue;
                }
                long ticked = System.nanoTime();
                long interval = ticked - lastSampleEnd;
                r.tickNanos += interval;
                if (countAlloc) {
                    workerAlloc += sum(threads.getThreadAllocatedBytes(workerIds)) - sum(workerBefore);
                }
                heap[n++] = probe.heapAfterGc();
                r.gcEverySample &= probe.lastCollected();
                if (countAlloc) {
                    workerBefore = threads.getThreadAllocatedBytes(workerIds);
                }
                lastSampleEnd = System.nanoTime();
                r.sampleNanos += lastSampleEnd - ticked;
                progress(err, o, t, (t - 1) % every + 1, interval, r, heap[n - 1], sys, probe.lastCollected(), n, samples);
            }
            r.heapSamples = Arrays.copyOf(heap, n);
            r.ticks = o.ticks;
            r.agentTicks = (long) o.agents * o.ticks;
            r.failures = sys.failures().total();
            r.keptFailures = sys.failures().kept();
            r.droppedEvents = sys.droppedEvents();
            r.expectedDrops = host.expectedDrops();
            r.events = host.events();
            r.parameters = host.parameters();
            r.periods = host.periods();
            r.respawned = host.respawned();
            if (countAlloc) {
                r.simAllocated = simAlloc;
                r.hostAllocated = hostAlloc;
                r.workerAllocated = workerAlloc;
            }
        }
        r.wallNanos = System.nanoTime() - start;
        r.loadAfter = CompareHarness.loadAverage();
        out.print(r.summary());
        out.flush();
        return r;
    }

    /**
     * The progress line of the sample after tick {@code t}: the rate over the {@code ticks} ticks since
     * the last sample ({@code nanos} of ticking), the ETA from the rate over the whole run so far plus
     * the samples to come.
     */
    private static void progress(PrintStream err, SoakOptions o, long t, long ticks, long nanos, SoakReport r, long heapBytes,
                                 StateTreeSystem sys, boolean collected, int sample, int samples) {
        double tickRate = ticks * 1e9 / Math.max(1, nanos);
        double overall = t * 1e9 / Math.max(1, r.tickNanos);
        double remaining = (o.ticks - t) / overall + (samples - sample) * (r.sampleNanos / 1e9 / sample);
        err.printf(Locale.ROOT, "soak: tick %,d/%,d (%5.1f%%) | %,d agent-ticks | %.1f ticks/s, %.2fM agent-ticks/s | "
                        + "heap after GC %s%s | failures %d | dropped %d | ETA %s%n",
                t, o.ticks, 100.0 * t / o.ticks, (long) o.agents * t, tickRate, tickRate * o.agents / 1e6,
                SoakReport.mb(heapBytes), collected ? "" : " (no GC ran)", sys.failures().total(), sys.droppedEvents(),
                duration(remaining));
        err.flush();
    }

    private static long sum(long[] v) {
        long s = 0;
        for (long x : v) {
            s += Math.max(0, x);
        }
        return s;
    }

    /** Seconds as {@code h:mm:ss}. */
    static String duration(double seconds) {
        long s = Math.round(Math.max(0, seconds));
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
