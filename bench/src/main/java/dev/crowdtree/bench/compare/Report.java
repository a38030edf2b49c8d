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

    /** Ticks {@code EquivalenceTest} runs the sleepy variant for (its delays are 3 to 60 s). */
    static final int SLEEPY_TEST_TICKS = 4500;

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
        for (List<RunResult> g : CompareHarness.groups(results).values()) {
            String tick = CompareHarness.commonSnapshotTick(g);
            if (tick != null) {
                RunResult first = g.get(0);
                equivalence.add(new Equivalence(first.variant(), first.agents(), g.size(), Integer.parseInt(tick),
                        CompareHarness.sameOccupancy(g, tick), first.occupancyAtTick().get(tick)));
            }
        }
        for (Variant v : Variant.values()) {
            evaluateAims(v);
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

    /** The aims at the largest agent count that was run for {@code v}. */
    private void evaluateAims(Variant v) {
        int agents = 0;
        for (RunResult r : results) {
            if (r.variant().equals(v.id())) {
                agents = Math.max(agents, r.agents());
            }
        }
        if (agents == 0) {
            return;
        }
        String id = v.id();
        RunResult ours1 = find(id, Impl.OURS_1W.id(), agents);
        RunResult ours2 = find(id, Impl.OURS_2W.id(), agents);
        RunResult gdx = find(id, Impl.GDX_AI.id(), agents);
        RunResult ref = find(id, Impl.REFERENCE.id(), agents);
        RunResult floor = find(id, Impl.FLOOR.id(), agents);
        if (ours1 != null) {
            if (gdx != null) {
                faster(id, agents, "ours (1 worker) vs " + gdx.label() + ", per agent-tick", ours1, gdx, ours2);
            }
            if (ref != null) {
                faster(id, agents, "ours (1 worker) vs the reference interpreter, per agent-tick", ours1, ref, ours2);
            }
            if (floor != null) {
                double ratio = ours1.nsPerAgentTick() / floor.nsPerAgentTick();
                String extra = ours2 == null ? "" : String.format(Locale.ROOT, "; 2 workers: %.2fx", ours2.nsPerAgentTick() / floor.nsPerAgentTick());
                aims.add(new Aim(id, agents, "ours (1 worker) within 4x of the hand-written floor", "<= 4x", ratio, fmt(ratio) + "x",
                        ratio <= 4, (ratio <= 4 ? "" : "by " + fmt(ratio / 4) + "x ") + String.format(Locale.ROOT,
                        "(%.1f vs %.1f ns/agent-tick)", ours1.nsPerAgentTick(), floor.nsPerAgentTick()) + extra));
            }
            if (ours2 != null) {
                double speedup = ours1.nsPerAgentTick() / ours2.nsPerAgentTick();
                aims.add(new Aim(id, agents, "2 workers vs 1 worker (speed-up)", ">= 1.7x", speedup, fmt(speedup) + "x",
                        speedup >= 1.7, (speedup >= 1.7 ? "" : "by " + fmt(1.7 / speedup) + "x ") + String.format(Locale.ROOT,
                        "(%.1f vs %.1f ns/agent-tick)", ours2.nsPerAgentTick(), ours1.nsPerAgentTick())));
            }
            double alloc = Math.max(ours1.allocatedBytesPerTick(), ours2 == null ? 0 : ours2.allocatedBytesPerTick());
            aims.add(new Aim(id, agents, "bytes allocated per steady tick (ours, all threads)", "0 B", alloc, fmt(alloc) + " B",
                    alloc == 0, alloc == 0 ? "(all measured ticks)" : "by " + fmt(alloc) + " B/tick"));
            int inst = ours1.instanceBytesPerAgent();
            aims.add(new Aim(id, agents, "state-tree instance data per agent (StateTreeSystem.bytesPerAgent())", "<= 64 B", inst,
                    inst + " B", inst <= 64, (inst <= 64 ? "" : "by " + (inst - 64) + " B; ") + String.format(Locale.ROOT,
                    "(whole heap per agent incl. the sim-core world: %.0f B)", ours1.heapBytesPerAgent())));
        }
    }

    private void faster(String variant, int agents, String name, RunResult ours1, RunResult other, RunResult ours2) {
        double ratio = other.nsPerAgentTick() / ours1.nsPerAgentTick();
        String extra = ours2 == null ? "" : String.format(Locale.ROOT, "; 2 workers: %sx", fmt(other.nsPerAgentTick() / ours2.nsPerAgentTick()));
        aims.add(new Aim(variant, agents, name, ">= 10x", ratio, fmt(ratio) + "x", ratio >= 10,
                (ratio >= 10 ? "" : "by " + fmt(10 / ratio) + "x ") + String.format(Locale.ROOT,
                        "(%.1f vs %.1f ns/agent-tick)", ours1.nsPerAgentTick(), other.nsPerAgentTick()) + extra));
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
        b.append("# Side-by-side comparison\n\n");
        b.append("Generated by `").append(command()).append("` on ").append(generated).append(", in ")
                .append(String.format(Locale.ROOT, "%.0f s", seconds)).append(".\n\n");
        b.append(String.format(Locale.ROOT, "Machine: %d cores, %s %s, Java %s (%s); load average (1, 5, 15 min) before: %s, after: %s.%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.version"), System.getProperty("java.vm.name"), loadBefore, loadAfter));
        b.append(String.format(Locale.ROOT, "Each run: %s, G1, heap 1 GiB + 5 KB per agent; start (tick 0), warm-up %d ticks (at most %.0f s), "
                        + "then %d measured ticks (a fast run measures more, until 2 s have passed, at most 20 times as many; "
                        + "a slow run stops after %.0f s, with at least %d ticks) of dt = 1/30 s; seed %d.%s%n%n",
                options.fork ? "a fresh JVM" : "in-process", options.warmup, options.warmupBudget, options.ticks, options.budget,
                CompareRun.MIN_TICKS, options.seed, !options.variants.contains(Variant.SLEEPY) ? "" : " Sleepy variant: before each "
                        + "tick the host sends the event `" + Logic.S_EVENT + "` to max(1, agents / 1000) agents drawn from `CounterRng` "
                        + "(the same for every implementation); the sends are part of the timed tick."));
        b.append("Columns: ns/agent-tick = mean tick time / agents; p50/p99/max = tick time (HdrHistogram); "
                + "B/agent = used heap after 3 full GCs with the population alive minus the same with an empty population, per agent; "
                + "B/tick = bytes allocated by all live threads over the measured ticks, per tick; "
                + "awake = share of the agents awake per measured tick, mean of `awakeLastTick()` / agents "
                + "(our runtimes only, - for the others); "
                + "ticks = warm-up + measured (* = cut short by the time budget).\n\n");
        b.append("| variant | implementation | agents | ns/agent-tick | ticks/s | p50 ms | p99 ms | max ms | B/agent | B/tick | awake | ticks |\n");
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
        b.append("\n## Like for like\n\nAt the latest warm-up snapshot every run of a group reached, every implementation has the "
                + "same per-state occupancy and the same hash of every agent's state (`EquivalenceTest` checks agent by agent "
                + "at 5,000 agents, for 300 ticks, and for the sleepy variant " + String.format(Locale.ROOT, "%,d", SLEEPY_TEST_TICKS)
                + " ticks, past every leaf and the wrap-around):\n\n");
        b.append("| variant | agents | implementations | tick | identical | occupancy (running agents per leaf) |\n|---|---:|---:|---:|---|---|\n");
        for (Equivalence e : equivalence) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %d | %d | %s | %s |%n", e.variant(), e.agents(), e.implementations(),
                    e.tick(), e.identical() ? "yes" : "**NO**", occupancyText(e.variant(), e.occupancy())));
        }
        b.append("\n## Aims\n\n| variant | agents | aim | target | measured | result |\n|---|---:|---|---|---|---|\n");
        for (Aim a : aims) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s | %s | %s |%n", a.variant(), a.agents(), a.aim(), a.target(),
                    a.measured(), (a.met() ? "met " : "**missed** ") + a.detail()));
        }
        b.append("\nChart: [compare.svg](compare.svg) (ns per agent-tick against agents, log-log).\n");
        return b.toString();
    }

    private static String occupancyText(String variant, int[] occupancy) {
        Variant v = Variant.parse(variant);
        dev.crowdtree.statetree.compiled.CompiledStateTree tree = v.compile();
        List<String> parts = new ArrayList<>();
        for (int s = 0; s < occupancy.length; s++) {
            if (occupancy[s] > 0) {
                parts.add(tree.stateName[s] + " " + occupancy[s]);
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
        settings.put("dt", (double) CompareRun.DT);
        settings.put("seed", options.seed);
        doc.put("settings", settings);
        doc.put("results", results);
        doc.put("equivalence", equivalence);
        doc.put("aims", aims);
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
        for (String f : failures) {
            b.append("FAILED: ").append(f).append('\n');
        }
        return b.toString();
    }
}
