package dev.crowdtree.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import org.HdrHistogram.Histogram;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * One measured run of the harness, normally in a JVM of its own (started by {@link CompareHarness}):
 * {@code CompareRun <variant> <impl> <agents> <warmupTicks> <warmupBudgetSeconds> <maxTicks> <budgetSeconds> <seed>},
 * or {@code CompareRun tree <impl> ... <seed> [--model PATH] [--nodes PATH]... [--tree FILE]} for a
 * user's tree ({@link UserTree}, loaded by this JVM from those paths). Prints progress to stderr and
 * one line {@code RESULT <json>} ({@link RunResult}) to stdout.
 *
 * <p>Procedure: (1) an empty population (0 agents) of the implementation is built and started, full
 * GC three times, used heap noted; (2) the real population is built and started (tick 0); (3)
 * {@code warmupTicks} ticks, or fewer when {@code warmupBudgetSeconds} run out (every 25th tick, the
 * occupancy and a hash of every agent's state, for the cross-implementation check); full GC three times, used heap noted with the
 * population alive: the difference to (1) per agent is the heap per agent; (4) measured ticks, each
 * timed with {@code System.nanoTime} into an HdrHistogram: {@code maxTicks} ticks, more for a fast
 * run until 2 s have passed (at most 20 times {@code maxTicks}), fewer for a slow run once
 * {@code budgetSeconds} of measuring have passed (at least {@link #MIN_TICKS}); the bytes allocated
 * ({@code com.sun.management.ThreadMXBean}) by the simulation thread inside the timed ticks, plus by
 * every other live thread (workers, the JVM's own) over the measured ticks, minus the cost of reading
 * the counters, divided by the ticks. The harness's own work between ticks on the simulation thread
 * (picking the host's events, recording times) is not charged: it is the same for every
 * implementation, about 0.1-1 B per tick, and would hide whether a tick allocates.
 *
 * <p>Host events (sleepy variant): before each tick the run picks that tick's receivers
 * ({@link Logic#hostEvents}, untimed) and sends them ({@link Population#sendEvent}) inside the timed
 * part, so a tick's time includes taking the host's events in. After each measured tick, untimed,
 * it reads {@link Population#awakeLastTick()} where the implementation tells: the awake share.
 */
public final class CompareRun {
    /** Seconds per tick (30 Hz). */
    public static final float DT = 1f / 30f;
    /** Measured ticks even when the budget is exhausted. */
    static final int MIN_TICKS = 5;
    /** A fast run measures more than {@code maxTicks} ticks until this much time has passed... */
    static final long MIN_MEASURE_NS = 2_000_000_000L;
    /** ...but at most this many times {@code maxTicks}. */
    static final int MAX_TICKS_FACTOR = 20;
    static final String RESULT_PREFIX = "RESULT ";
    /** Occupancy snapshots are taken every this many warm-up ticks. */
    static final int SNAPSHOT_EVERY = 25;

    private CompareRun() {
    }

    /**
     * Runs one measurement and prints its result: {@code <variant> <impl> <agents> <warmupTicks>
     * <warmupBudgetSeconds> <maxTicks> <budgetSeconds> <seed>}, or for a user's tree {@code tree <impl>
     * ... <seed>} followed by the options that name it ({@link UserTree.Source#args()}), which this
     * JVM loads itself.
     */
    public static void main(String[] args) throws Exception {
        boolean user = args.length > 0 && args[0].equals(UserTree.RUN_ARG);
        if (args.length < 8 || (!user && args.length != 8)) {
            System.err.println("usage: CompareRun <variant> <impl> <agents> <warmupTicks> <warmupBudgetSeconds> <maxTicks> "
                    + "<budgetSeconds> <seed>, or CompareRun " + UserTree.RUN_ARG + " <impl> ... <seed> [--model PATH] "
                    + "[--nodes PATH]... [--tree FILE]");
            System.exit(2);
        }
        Impl impl = Impl.parse(args[1]);
        int agents = Integer.parseInt(args[2]);
        int warmupTicks = Integer.parseInt(args[3]);
        double warmupBudget = Double.parseDouble(args[4]);
        int maxTicks = Integer.parseInt(args[5]);
        double budget = Double.parseDouble(args[6]);
        long seed = Long.parseLong(args[7]);
        RunResult r;
        if (user) {
            try (UserTree tree = UserTree.load(UserTree.Source.parse(args, 8))) {
                r = run(tree, impl, agents, warmupTicks, warmupBudget, maxTicks, budget, seed);
            }
        } else {
            r = run(Variant.parse(args[0]), impl, agents, warmupTicks, warmupBudget, maxTicks, budget, seed);
        }
        System.out.println(RESULT_PREFIX + new ObjectMapper().writeValueAsString(r));
        System.out.flush();
    }

    /**
     * What one run measures: the results' name for it, the implementation's label, the tree, seconds
     * per tick, how a population is made, and the logic whose host events are sent (null: none).
     */
    private record Subject(String id, String label, CompiledStateTree tree, float dt, IntFunction<Population> create,
                           Logic events) {
    }

    /** Runs one measurement of a built-in variant in this JVM. */
    public static RunResult run(Variant variant, Impl impl, int agents, int warmupTicks, double warmupBudgetSeconds,
                                int maxTicks, double budgetSeconds, long seed) {
        Logic logic = Logic.of(variant, variant.compile());
        return run(new Subject(variant.id(), impl.label(variant), logic.tree, DT, n -> impl.create(logic, n, seed), logic),
                impl, agents, warmupTicks, warmupBudgetSeconds, maxTicks, budgetSeconds, seed);
    }

    /**
     * Runs one measurement of a user's tree in this JVM (no host events; {@link UserTree#dt()} per tick).
     *
     * @throws IllegalArgumentException when {@code impl} does not {@link Impl#runsAnyTree() run any tree}
     */
    public static RunResult run(UserTree tree, Impl impl, int agents, int warmupTicks, double warmupBudgetSeconds,
                                int maxTicks, double budgetSeconds, long seed) {
        if (!impl.runsAnyTree()) {
            throw new IllegalArgumentException(impl.id() + " implements only the built-in variants; a user's tree runs on "
                    + Impl.ids(Impl.anyTree()));
        }
        return run(new Subject(tree.id(), impl.label(null), tree.tree(), tree.dt(), n -> tree.create(impl, n, seed), null),
                impl, agents, warmupTicks, warmupBudgetSeconds, maxTicks, budgetSeconds, seed);
    }

    private static RunResult run(Subject subject, Impl impl, int agents, int warmupTicks, double warmupBudgetSeconds,
                                 int maxTicks, double budgetSeconds, long seed) {
        long runStart = System.nanoTime();
        Logic events = subject.events();
        float dt = subject.dt();
        Histogram hist = new Histogram(3_600_000_000_000L, 3);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);

        // (1) the empty baseline
        long emptyHeap;
        Population empty = subject.create().apply(0);
        try {
            empty.start();
            emptyHeap = usedHeapAfterGc();
        } finally {
            empty.close();
        }
        empty = null;

        // (2) setup
        long t0 = System.nanoTime();
        Population pop = subject.create().apply(agents);
        try {
            pop.start();
            double setupSeconds = (System.nanoTime() - t0) / 1e9;

            // (3) warm-up, occupancy, heap with the population alive
            long tick = 1;
            long wu0 = System.nanoTime();
            long warmupBudgetNs = (long) (warmupBudgetSeconds * 1e9);
            Map<String, int[]> snapshots = new LinkedHashMap<>();
            Map<String, String> hashes = new LinkedHashMap<>();
            int[] receivers = new int[events == null ? 0 : events.hostEventsPerTick(agents)];
            boolean warmupLimited = false;
            for (; tick <= warmupTicks; tick++) {
                step(pop, receivers, events == null ? 0 : events.hostEvents(seed, tick, agents, receivers), tick, dt);
                if (tick % SNAPSHOT_EVERY == 0) {
                    snapshot(pop, subject.tree(), agents, Long.toString(tick), snapshots, hashes);
                }
                if (System.nanoTime() - wu0 > warmupBudgetNs && tick < warmupTicks) {
                    warmupLimited = true;
                    tick++;
                    break;
                }
            }
            int warmedUp = (int) (tick - 1);
            double warmupSeconds = (System.nanoTime() - wu0) / 1e9;
            int[] occupancy = snapshot(pop, subject.tree(), agents, null, null, null);
            long fullHeap = usedHeapAfterGc();
            double heapPerAgent = agents == 0 ? 0 : (double) (fullHeap - emptyHeap) / agents;
            System.err.printf(Locale.ROOT, "    setup %.2f s, warm-up %d ticks in %.2f s%s, heap %.1f B/agent%n",
                    setupSeconds, warmedUp, warmupSeconds, warmupLimited ? " (time budget)" : "", heapPerAgent);

            // (4) measured ticks
            long self = Thread.currentThread().getId();
            long[] ids = Arrays.stream(threads.getAllThreadIds()).filter(id -> id != self).toArray();
            long[] before = new long[ids.length];
            long[] after = new long[ids.length];
            long overhead = Long.MAX_VALUE;
            for (int i = 0; i < 5; i++) {
                long a = allocated(threads, ids, before);
                long b = allocated(threads, ids, after);
                overhead = Math.min(overhead, b - a);
            }
            long budgetNs = (long) (budgetSeconds * 1e9);
            int measured = 0;
            boolean limited = false;
            double awakeSum = 0;
            boolean awakeKnown = pop.awakeLastTick() >= 0;
            long selfAlloc = 0;
            long alloc0 = allocated(threads, ids, before);
            long m0 = System.nanoTime();
            while (true) {
                int k = events == null ? 0 : events.hostEvents(seed, tick, agents, receivers);
                long a = threads.getCurrentThreadAllocatedBytes();
                long s = System.nanoTime();
                step(pop, receivers, k, tick++, dt);
                long e = System.nanoTime();
                selfAlloc += threads.getCurrentThreadAllocatedBytes() - a;
                hist.recordValue(Math.max(1, e - s));
                measured++;
                if (awakeKnown) {
                    awakeSum += pop.awakeLastTick();
                }
                long elapsed = e - m0;
                if (measured >= maxTicks && (elapsed >= MIN_MEASURE_NS || measured >= MAX_TICKS_FACTOR * maxTicks)) {
                    break; // enough ticks, and long enough to average out short disturbances
                }
                if (elapsed > budgetNs && measured >= MIN_TICKS) {
                    limited = measured < maxTicks;
                    break;
                }
            }
            long alloc1 = allocated(threads, ids, after);
            double allocPerTick = (Math.max(0, alloc1 - alloc0 - overhead) + selfAlloc) / (double) measured;
            double mean = hist.getMean();
            double awakeShare = awakeKnown && agents > 0 ? awakeSum / measured / agents : -1;
            return new RunResult(subject.id(), impl.id(), subject.label(), agents, warmedUp, warmupLimited, measured, limited,
                    mean, mean / agents, 1e9 / mean,
                    hist.getValueAtPercentile(50) / 1e6, hist.getValueAtPercentile(99) / 1e6, hist.getMaxValue() / 1e6,
                    heapPerAgent, allocPerTick, pop.instanceBytesPerAgent(), awakeShare, occupancy, snapshots, hashes, setupSeconds,
                    (System.nanoTime() - runStart) / 1e9, Runtime.getRuntime().maxMemory() >> 20);
        } finally {
            pop.close();
        }
    }

    /** One host step: sends the {@code k} events of {@code events} (see {@link Logic#hostEvents}), then ticks. */
    static void step(Population pop, int[] events, int k, long tick, float dt) {
        for (int j = 0; j < k; j++) {
            pop.sendEvent(events[j]);
        }
        pop.tick(tick, dt);
    }

    /**
     * The occupancy (running agents per state id), recorded under {@code key} with a hash of every
     * agent's state when {@code key} is not null.
     */
    private static int[] snapshot(Population pop, CompiledStateTree tree, int agents, String key, Map<String, int[]> occupancy,
                                  Map<String, String> hashes) {
        int[] states = new int[agents];
        pop.states(states);
        int[] counts = new int[tree.stateCount];
        long h = 0;
        for (int a = 0; a < agents; a++) {
            int s = states[a];
            if (s >= 0) {
                counts[s]++;
            }
            h = CounterRng.mix(h + ((long) a << 16) + s + 1);
        }
        if (key != null) {
            occupancy.put(key, counts);
            hashes.put(key, Long.toHexString(h));
        }
        return counts;
    }

    /** Sum of the bytes allocated so far by the threads {@code ids} (dead threads count 0). */
    private static long allocated(com.sun.management.ThreadMXBean threads, long[] ids, long[] scratch) {
        long[] v = threads.getThreadAllocatedBytes(ids);
        System.arraycopy(v, 0, scratch, 0, v.length);
        long sum = 0;
        for (long x : scratch) {
            sum += Math.max(0, x);
        }
        return sum;
    }

    /** Used heap after three full GCs. */
    static long usedHeapAfterGc() {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return mem.getHeapMemoryUsage().getUsed();
    }
}
