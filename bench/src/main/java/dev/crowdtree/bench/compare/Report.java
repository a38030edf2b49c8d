package dev.crowdtree.bench.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The outputs of one harness run: the Markdown table, the JSON document, the aims summary. */
final class Report {
    /** One aim of the issue, evaluated on the measured numbers. */
    record Aim(String variant, int agents, String aim, String target, double value, String measured, boolean met, String detail) {
    }

    /** The cross-implementation occupancy check of one (variant, agents) group. */
    record Equivalence(String variant, int agents, int implementations, int tick, boolean identical, int[] occupancy) {
    }

    /**
     * A user's tree: how many times slower per agent-tick the reference interpreter is than one of
     * our batched runs ({@code reference ns / ours ns}) at one agent count.
     */
    record Ratio(String tree, int agents, String impl, String label, double oursNs, String reference, double referenceNs,
                 double ratio, double oursBytesPerTick) {
    }

    /** Ticks {@code EquivalenceTest} runs the sleepy variant for (its delays are 3 to 60 s). */
    static final int SLEEPY_TEST_TICKS = 4500;
    /** Ticks {@code EquivalenceTest} runs the aborts variant for (one period of the threat wave). */
    static final int ABORTS_TEST_TICKS = 600;

    private final List<RunResult> results;
    private final List<String> failures;
    private final CompareHarness.Options options;
    private final String[] args;
    private final String loadBefore;
    private final String loadAfter;
    private final double seconds;
    private final List<Impl> skipped;
    private final String generated = CompareHarness.now();
    final List<Aim> aims = new ArrayList<>();
    final List<Equivalence> equivalence = new ArrayList<>();
    final List<Ratio> ratios = new ArrayList<>();
    /** The user's tree, or null (the built-in variants). */
    private final UserTree user;

    Report(List<RunResult> results, List<String> failures, CompareHarness.Options options, String[] args,
           String loadBefore, String loadAfter, double seconds, List<Impl> skipped) {
        this.results = results;
        this.failures = failures;
        this.options = options;
        this.args = args;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.seconds = seconds;
        this.skipped = skipped;
        this.user = options.user;
        for (List<RunResult> g : CompareHarness.groups(results).values()) {
            String tick = CompareHarness.commonSnapshotTick(g);
            if (tick != null) {
                RunResult first = g.get(0);
                equivalence.add(new Equivalence(first.variant(), first.agents(), g.size(), Integer.parseInt(tick),
                        CompareHarness.sameOccupancy(g, tick), first.occupancyAtTick().get(tick)));
            }
        }
        if (user == null) {
            evaluateAims();
        } else {
            evaluateRatios();
        }
    }

    /**
     * A user's tree: at each agent count, the reference interpreter's ns per agent-tick over each of
     * our batched runs' (against the every-tick reference when it ran, else the scheduled one).
     */
    private void evaluateRatios() {
        for (List<RunResult> g : CompareHarness.groups(results).values()) {
            RunResult ref = null;
            for (String id : List.of(Impl.REFERENCE.id(), Impl.REFERENCE_SCHEDULED.id())) {
                for (RunResult r : g) {
                    if (ref == null && r.impl().equals(id)) {
                        ref = r;
                    }
                }
            }
            if (ref == null) {
                continue;
            }
            for (RunResult r : g) {
                if (!r.impl().startsWith("reference")) {
                    ratios.add(new Ratio(r.variant(), r.agents(), r.impl(), r.label(), r.nsPerAgentTick(), ref.label(),
                            ref.nsPerAgentTick(), ref.nsPerAgentTick() / r.nsPerAgentTick(), r.allocatedBytesPerTick()));
                }
            }
        }
    }

    private RunResult find(String variant, String impl, int agents) {
        for (RunResult r : results) {
            if (r.variant().equals(variant) && r.impl().equals(impl) && r.agents() == agents) {
                return r;
            }
        }
        return null;
    }

    /** The largest agent count run for {@code v}, or 0. */
    private int largest(Variant v) {
        int agents = 0;
        for (RunResult r : results) {
            if (r.variant().equals(v.id())) {
                agents = Math.max(agents, r.agents());
            }
        }
        return agents;
    }

    /**
     * Issue 8's aims, raised where issues 22 and 35 ask more (the reference interpreter 25x, two
     * workers 1.9x, gdx-ai's state machine 6x, the whole heap 100 B per agent, the aborts tree 2x its
     * floor; their sleepy aims, 0.4 ms and 15x, are below issue 8's 0.3 ms and 20x, which stay), each
     * at the largest agent count run for its variant (1M in the default run). Targets are never
     * relaxed: a missed aim says by how much.
     */
    private void evaluateAims() {
        int h = largest(Variant.HIERARCHICAL);
        if (h > 0) {
            String id = Variant.HIERARCHICAL.id();
            RunResult ours1 = find(id, Impl.OURS_1W.id(), h);
            RunResult ours2 = find(id, Impl.OURS_2W.id(), h);
            RunResult floor = find(id, Impl.FLOOR.id(), h);
            RunResult ref = find(id, Impl.REFERENCE.id(), h);
            RunResult refScheduled = find(id, Impl.REFERENCE_SCHEDULED.id(), h);
            if (ours1 != null) {
                double ns = ours1.nsPerAgentTick();
                atMost(id, h, "ours (1 worker), per agent-tick", "<= 5 ns", ns, 5, fmt(ns) + " ns",
                        String.format(Locale.ROOT, "(%.1f ns/agent-tick, %.3f ms per tick)", ns, ours1.meanTickNs() / 1e6)
                                + (ours2 == null ? "" : "; 2 workers: " + fmt(ours2.nsPerAgentTick()) + " ns"));
                if (floor != null) {
                    faster(id, h, "ours (1 worker) vs the hand-written floor, per agent-tick", 2, ours1, floor, ours2, null);
                }
                if (ref != null) {
                    faster(id, h, "ours (1 worker) vs the reference interpreter, per agent-tick", 25, ours1, ref, ours2, refScheduled);
                }
                if (ours2 != null) {
                    double speedup = ours1.nsPerAgentTick() / ours2.nsPerAgentTick();
                    atLeast(id, h, "2 workers vs 1 worker (speed-up)", ">= 1.9x", speedup, 1.9, String.format(Locale.ROOT,
                            "(%.1f vs %.1f ns/agent-tick)", ours2.nsPerAgentTick(), ours1.nsPerAgentTick()));
                }
            }
            allocation(id, h, ours1, ours2);
            counters(id, h, ours1);
            watching(id, h, ours1);
            if (ours1 != null) {
                double heap = Math.max(ours1.heapBytesPerAgent(), ours2 == null ? 0 : ours2.heapBytesPerAgent());
                atMost(id, h, "whole heap per agent (ours, incl. the sim-core world)", "<= 100 B", heap, 100,
                        String.format(Locale.ROOT, "%.0f B", heap), String.format(Locale.ROOT, "(%.0f vs 100 B; 1 worker %.0f B%s; "
                                        + "state-tree instance data %d B)", heap, ours1.heapBytesPerAgent(),
                                ours2 == null ? "" : String.format(Locale.ROOT, ", 2 workers %.0f B", ours2.heapBytesPerAgent()),
                                ours1.instanceBytesPerAgent()));
            }
        }
        int f = largest(Variant.FLAT);
        if (f > 0) {
            String id = Variant.FLAT.id();
            RunResult ours1 = find(id, Impl.OURS_1W.id(), f);
            RunResult ours2 = find(id, Impl.OURS_2W.id(), f);
            RunResult gdx = find(id, Impl.GDX_AI.id(), f);
            if (ours1 != null && gdx != null) {
                faster(id, f, "ours (1 worker) vs " + gdx.label() + ", per agent-tick", 6, ours1, gdx, ours2, null);
            }
            allocation(id, f, ours1, ours2);
        }
        int z = largest(Variant.SLEEPY);
        if (z > 0) {
            String id = Variant.SLEEPY.id();
            RunResult ours1 = find(id, Impl.OURS_1W.id(), z);
            RunResult ours2 = find(id, Impl.OURS_2W.id(), z);
            RunResult floor = find(id, Impl.FLOOR.id(), z);
            if (ours1 != null) {
                double ns = ours1.nsPerAgentTick();
                atMost(id, z, "ours (1 worker), per tick", "<= 0.3 ns/agent-tick (0.3 ms per tick at 1M)", ns, 0.3,
                        fmt(ns) + " ns", String.format(Locale.ROOT, "(%s ns/agent-tick, %.3f ms per tick%s)", fmt(ns),
                                ours1.meanTickNs() / 1e6, ours1.awakeShare() < 0 ? ""
                                        : ", " + fmt(100 * ours1.awakeShare()) + "% of the agents awake per tick"));
                if (floor != null) {
                    faster(id, z, "ours (1 worker) vs the hand-written floor, per agent-tick", 20, ours1, floor, ours2, null);
                }
            }
            allocation(id, z, ours1, ours2);
        }
        int b = largest(Variant.ABORTS);
        if (b > 0) {
            // issue 35: at least twice as fast as its own hand-written floor (with the same aborts)
            String id = Variant.ABORTS.id();
            RunResult ours1 = find(id, Impl.OURS_1W.id(), b);
            RunResult ours2 = find(id, Impl.OURS_2W.id(), b);
            RunResult floor = find(id, Impl.FLOOR.id(), b);
            if (ours1 != null && floor != null) {
                faster(id, b, "ours (1 worker) vs the hand-written floor, per agent-tick", 2, ours1, floor, ours2, null);
            }
            allocation(id, b, ours1, ours2);
        }
    }

    /** Issue 21's aim: the population counters ({@code setRecording}) cost under 5% of the tick. */
    private void counters(String variant, int agents, RunResult ours1) {
        RunResult on = find(variant, Impl.OURS_1W_COUNTERS.id(), agents);
        if (ours1 == null || on == null) {
            return;
        }
        double pct = 100 * (on.nsPerAgentTick() / ours1.nsPerAgentTick() - 1);
        atMost(variant, agents, "cost of the population counters (1 worker)", "<= 5% of the tick", Math.max(pct, 0), 5,
                fmt(pct) + "%", String.format(Locale.ROOT, "(%s vs %s ns/agent-tick)", fmt(on.nsPerAgentTick()),
                        fmt(ours1.nsPerAgentTick())));
    }

    /** Issue 21's aim: the counters plus 1% of the agents watched ({@code Recorder.watch}) cost under 15% of the tick. */
    private void watching(String variant, int agents, RunResult ours1) {
        RunResult on = find(variant, Impl.OURS_1W_WATCH1.id(), agents);
        if (ours1 == null || on == null) {
            return;
        }
        double pct = 100 * (on.nsPerAgentTick() / ours1.nsPerAgentTick() - 1);
        atMost(variant, agents, "cost of watching 1% of the agents, counters on (1 worker)", "<= 15% of the tick",
                Math.max(pct, 0), 15, fmt(pct) + "%", String.format(Locale.ROOT, "(%s vs %s ns/agent-tick)",
                        fmt(on.nsPerAgentTick()), fmt(ours1.nsPerAgentTick())));
    }

    /** An aim {@code value <= limit}; missed by {@code value / limit}. */
    private void atMost(String variant, int agents, String name, String target, double value, double limit, String measured,
                        String detail) {
        boolean met = value <= limit;
        aims.add(new Aim(variant, agents, name, target, value, measured, met, (met ? "" : "by " + fmt(value / limit) + "x ") + detail));
    }

    /** An aim {@code value >= limit} (a ratio); missed by {@code limit / value}. */
    private void atLeast(String variant, int agents, String name, String target, double value, double limit, String detail) {
        boolean met = value >= limit;
        aims.add(new Aim(variant, agents, name, target, value, fmt(value) + "x", met, (met ? "" : "by " + fmt(limit / value) + "x ") + detail));
    }

    /** Ours (1 worker) at least {@code times} faster per agent-tick than {@code other}; the 2-worker and a second ratio as extras. */
    private void faster(String variant, int agents, String name, double times, RunResult ours1, RunResult other, RunResult ours2,
                        RunResult second) {
        double ratio = other.nsPerAgentTick() / ours1.nsPerAgentTick();
        String extra = (ours2 == null ? "" : "; 2 workers: " + fmt(other.nsPerAgentTick() / ours2.nsPerAgentTick()) + "x")
                + (second == null ? "" : "; vs " + second.label() + ": " + fmt(second.nsPerAgentTick() / ours1.nsPerAgentTick()) + "x");
        String target = ">= " + (times == Math.rint(times) ? Long.toString((long) times) : fmt(times)) + "x";
        atLeast(variant, agents, name, target, ratio, times, String.format(Locale.ROOT, "(%s vs %s ns/agent-tick)",
                fmt(ours1.nsPerAgentTick()), fmt(other.nsPerAgentTick())) + extra);
    }

    /** Bytes allocated per steady tick by ours (1 and 2 workers, whichever is larger): 0 B. */
    private void allocation(String variant, int agents, RunResult ours1, RunResult ours2) {
        if (ours1 == null && ours2 == null) {
            return;
        }
        double alloc = Math.max(ours1 == null ? 0 : ours1.allocatedBytesPerTick(), ours2 == null ? 0 : ours2.allocatedBytesPerTick());
        aims.add(new Aim(variant, agents, "bytes allocated per steady tick (ours, all threads)", "0 B", alloc, fmt(alloc) + " B",
                alloc == 0, alloc == 0 ? "(all measured ticks)" : "by " + fmt(alloc) + " B/tick"));
    }

    static String fmt(double x) {
        if (x == 0) {
            return "0";
        }
        double a = Math.abs(x);
        return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", x);
    }

    /** An awake share as a percentage, or "-" when the implementation cannot tell (negative). */
    static String awake(double share) {
        return share < 0 ? "-" : fmt(100 * share) + "%";
    }

    /** Bytes: with decimals below 100 (a few hundred bytes over thousands of ticks is not "1 B/tick"). */
    private static String bytes(double x) {
        return x < 100 ? fmt(x) : String.format(Locale.ROOT, "%,.0f", x);
    }

    String command() {
        return "java -jar bench/target/benchmarks.jar compare" + (args.length == 0 ? "" : " " + String.join(" ", args));
    }

    String markdown() {
        StringBuilder b = new StringBuilder();
        b.append(user == null ? "# Side-by-side comparison\n\n" : "# Your tree side by side: ours vs the reference interpreter\n\n");
        b.append("Generated by `").append(command()).append("` on ").append(generated).append(", in ")
                .append(String.format(Locale.ROOT, "%.0f s", seconds)).append(".\n\n");
        if (user != null) {
            b.append("Your ").append(user.title()).append(". ").append(user.hostText()).append("\n\n");
        }
        b.append(String.format(Locale.ROOT, "Machine: %d cores, %s %s, Java %s (%s); load average (1, 5, 15 min) before: %s, after: %s.%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.version"), System.getProperty("java.vm.name"), loadBefore, loadAfter));
        b.append(String.format(Locale.ROOT, "Each run: %s, G1, heap 1 GiB + 5 KB per agent; start (tick 0), warm-up %d ticks (at most %.0f s), "
                        + "then %d measured ticks (a fast run measures more, until 2 s have passed, at most 20 times as many; "
                        + "a slow run stops after %.0f s, with at least %d ticks) of dt = %s s; seed %d.%s%n%n",
                options.fork ? "a fresh JVM" + (options.jvmOpts.isEmpty() ? "" : " (with " + String.join(" ", options.jvmOpts) + ")")
                        : "in-process", options.warmup, options.warmupBudget, options.ticks, options.budget,
                CompareRun.MIN_TICKS, user == null ? "1/30" : user.dtText(), options.seed, !options.variants.contains(Variant.SLEEPY) ? "" : " Sleepy variant: before each "
                        + "tick the host sends the event `" + Logic.S_EVENT + "` to max(1, agents / 1000) agents drawn from `CounterRng` "
                        + "(the same for every implementation); the sends are part of the timed tick."));
        b.append("Columns: ns/agent-tick = mean tick time / agents; p50/p99/max = tick time (HdrHistogram); "
                + "B/agent = used heap after 3 full GCs with the population alive minus the same with an empty population, per agent; "
                + "B/tick = bytes allocated per measured tick: by the simulation thread inside the timed ticks, by every other thread (workers, the JVM's) throughout; "
                + "awake = share of the agents awake per measured tick, mean of `awakeLastTick()` / agents "
                + "(our runtimes only, - for the others); "
                + "ticks = warm-up + measured (* = cut short by the time budget).\n\n");
        b.append("| ").append(user == null ? "variant" : "tree")
                .append(" | implementation | agents | ns/agent-tick | ticks/s | p50 ms | p99 ms | max ms | B/agent | B/tick | awake | ticks |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunResult r : results) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %,d | %s | %s | %.3f | %.3f | %.3f | %.0f | %s | %s | %d%s + %d%s |%n",
                    r.variant(), r.label(), r.agents(), fmt(r.nsPerAgentTick()), fmt(r.ticksPerSecond()), r.p50Ms(), r.p99Ms(), r.maxMs(),
                    r.heapBytesPerAgent(), bytes(r.allocatedBytesPerTick()), awake(r.awakeShare()), r.warmupTicks(),
                    r.warmupLimited() ? "*" : "", r.measuredTicks(), r.budgetLimited() ? "*" : ""));
        }
        if (!skipped.isEmpty()) {
            b.append("\nNot run: ");
            for (Impl i : skipped) {
                b.append(i.id()).append(" (").append(Runtime.getRuntime().availableProcessors())
                        .append(" cores: all cores is the 2-worker run)");
            }
            b.append(".\n");
        }
        if (!failures.isEmpty()) {
            b.append("\n**Failed runs:**\n\n");
            for (String f : failures) {
                b.append("- ").append(f).append('\n');
            }
        }
        if (user == null) {
            b.append("\n## Like for like\n\nAt the latest warm-up snapshot every run of a group reached, every implementation has the "
                    + "same per-state occupancy and the same hash of every agent's state (`EquivalenceTest` checks agent by agent "
                    + "at 5,000 agents, for 300 ticks, and for the sleepy variant " + String.format(Locale.ROOT, "%,d", SLEEPY_TEST_TICKS)
                    + " ticks, past every leaf and the wrap-around, and for the aborts variant " + ABORTS_TEST_TICKS
                    + " ticks, where its priorities decide where some agents go):\n\n");
        } else {
            b.append("\n## Like for like\n\nAt the latest warm-up snapshot (every " + CompareRun.SNAPSHOT_EVERY + " ticks) every run "
                    + "of an agent count reached, whether every implementation has the same per-state occupancy and the same hash "
                    + "of every agent's state:\n\n");
        }
        b.append("| ").append(user == null ? "variant" : "tree")
                .append(" | agents | implementations | tick | identical | occupancy (running agents per leaf) |\n|---|---:|---:|---:|---|---|\n");
        for (Equivalence e : equivalence) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %d | %d | %s | %s |%n", e.variant(), e.agents(), e.implementations(),
                    e.tick(), e.identical() ? "yes" : "**NO**", occupancyText(e.variant(), e.occupancy())));
        }
        if (user == null) {
            b.append("\n## Aims\n\n| variant | agents | aim | target | measured | result |\n|---|---:|---|---|---|---|\n");
            for (Aim a : aims) {
                b.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s | %s | %s |%n", a.variant(), a.agents(), a.aim(), a.target(),
                        a.measured(), (a.met() ? "met " : "**missed** ") + a.detail()));
            }
        } else {
            b.append("\n## Ours vs the reference interpreter\n\nHow many times faster per agent-tick our batched runtime ran "
                    + "your tree than the per-agent reference interpreter (reference ns / ours ns), and what our tick allocated:\n\n"
                    + "| tree | agents | ours | ns/agent-tick | reference | ns/agent-tick | ratio | ours B/tick |\n"
                    + "|---|---:|---|---:|---|---:|---:|---:|\n");
            for (Ratio r : ratios) {
                b.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s | %s | %s | %sx | %s |%n", r.tree(), r.agents(), r.label(),
                        fmt(r.oursNs()), r.reference(), fmt(r.referenceNs()), fmt(r.ratio()), bytes(r.oursBytesPerTick())));
            }
        }
        b.append("\nChart: [compare.svg](compare.svg) (ns per agent-tick against agents, log-log).\n");
        return b.toString();
    }

    private String occupancyText(String variant, int[] occupancy) {
        dev.crowdtree.statetree.compiled.CompiledStateTree tree = user != null ? user.tree() : Variant.parse(variant).compile();
        List<String> parts = new ArrayList<>();
        for (int s = 0; s < occupancy.length; s++) {
            if (occupancy[s] > 0) {
                parts.add(tree.stateName(s) + " " + occupancy[s]);
            }
        }
        return String.join(", ", parts);
    }

    String json() throws JsonProcessingException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("generated", generated);
        doc.put("command", command());
        doc.put("seconds", seconds);
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        machine.put("java", System.getProperty("java.version") + " " + System.getProperty("java.vm.name"));
        machine.put("loadAverageBefore", loadBefore);
        machine.put("loadAverageAfter", loadAfter);
        doc.put("machine", machine);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("fork", options.fork);
        settings.put("warmupTicks", options.warmup);
        settings.put("warmupBudgetSeconds", options.warmupBudget);
        settings.put("maxMeasuredTicks", options.ticks);
        settings.put("budgetSeconds", options.budget);
        settings.put("minMeasuredTicks", CompareRun.MIN_TICKS);
        settings.put("dt", (double) (user == null ? CompareRun.DT : user.dt()));
        settings.put("seed", options.seed);
        doc.put("settings", settings);
        if (user != null) {
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("name", user.id());
            tree.put("title", user.title());
            tree.put("host", user.hostText());
            tree.put("model", user.model() == null ? null : user.model().name());
            tree.put("modelPath", user.source().model() == null ? null : user.source().model().toString());
            List<String> nodes = new ArrayList<>();
            user.source().nodes().forEach(p -> nodes.add(p.toString()));
            tree.put("nodes", nodes);
            tree.put("treeFile", user.source().tree() == null ? null : user.source().tree().toString());
            doc.put("tree", tree);
        }
        doc.put("results", results);
        doc.put("equivalence", equivalence);
        doc.put("aims", aims);
        if (user != null) {
            doc.put("ratios", ratios);
        }
        doc.put("failures", failures);
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n";
    }

    /** The console summary: the aims and the like-for-like check. */
    String summary() {
        StringBuilder b = new StringBuilder();
        for (Equivalence e : equivalence) {
            b.append(String.format(Locale.ROOT, "like for like: %s %,d agents, %d implementations, occupancy and per-agent states at tick %d %s%n",
                    e.variant(), e.agents(), e.implementations(), e.tick(), e.identical() ? "identical" : "DIFFERS"));
        }
        for (Aim a : aims) {
            b.append(String.format(Locale.ROOT, "aim [%s, %,d agents] %s: %s (target %s): %s %s%n", a.variant(), a.agents(), a.aim(),
                    a.measured(), a.target(), a.met() ? "met" : "MISSED", a.detail()));
        }
        for (Ratio r : ratios) {
            b.append(String.format(Locale.ROOT, "ours vs reference [%s, %,d agents] %s: %sx faster (%s vs %s ns/agent-tick), %s B/tick%n",
                    r.tree(), r.agents(), r.label(), fmt(r.ratio()), fmt(r.oursNs()), fmt(r.referenceNs()), bytes(r.oursBytesPerTick())));
        }
        for (String f : failures) {
            b.append("FAILED: ").append(f).append('\n');
        }
        return b.toString();
    }
}
