package dev.crowdtree.bench;

import dev.crowdtree.bench.compare.Impl;
import dev.crowdtree.bench.compare.Logic;
import dev.crowdtree.bench.compare.UserTree;
import dev.crowdtree.bench.compare.Variant;
import dev.crowdtree.bench.trees.SleepyTrees;
import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.exec.StateTreeSystem;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Prints where a steady tick spends its time, per sub-phase (summed worker CPU time), and what an
 * agent awake in a tick costs, for quick profiling:
 * {@code java -cp benchmarks.jar dev.crowdtree.bench.TickProfile [agents] [workers] [ticks] [crowd|hierarchical|flat|sleepy|aborts]},
 * or for your own tree, after the three numbers, the options {@code compare} takes for one
 * ({@code --tree FILE [--nodes PATH]...} or {@code --model PATH [--tree FILE] [--nodes PATH]...}:
 * the model's or the node providers' standalone host values, no host systems, no host events, the
 * model's dt else 1/30 s). {@code crowd} (the default) is the benchmark crowd tree; the others are the compare harness's
 * variants ({@code hierarchical} is the same crowd tree, warmed up longer); {@code sleepy},
 * the compare harness's sleepy tree, with its host events (one per 1,000 agents per tick, as
 * {@code compare} sends them), where the figures that matter are per agent awake in a tick: what one
 * woken agent costs. Warm-up: 300 ticks for the crowd, 1,500 for a variant (past sleepy's start's wave of
 * wakes), 600 for a user's tree (as {@code compare}).
 */
public final class TickProfile {
    private TickProfile() {
    }

    public static void main(String[] args) throws Exception {
        try {
            run(args, System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("usage: TickProfile [agents] [workers] [ticks] [crowd|" + Variant.ids().replace(',', '|') + " | --tree FILE [--nodes PATH]... "
                    + "| --model PATH [--tree FILE] [--nodes PATH]...]");
            System.exit(2);
        }
    }

    /**
     * {@link #main}, printing to {@code out}.
     *
     * @throws IllegalArgumentException for an unknown tree, or a user's tree that does not load
     */
    public static void run(String[] args, PrintStream out) throws Exception {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int ticks = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        if (args.length > 3 && args[3].startsWith("--")) {
            try (UserTree user = UserTree.load(UserTree.Source.parse(args, 3));
                 StateTreeSystem sys = user.system(agents, workers, 1)) {
                profile(out, user.id(), sys, agents, workers, ticks, 600, user.dt(), -1, 0);
            }
            return;
        }
        String name = args.length > 3 ? args[3] : "crowd";
        Variant variant = null;
        if (!name.equals("crowd")) {
            try {
                variant = Variant.parse(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown tree " + name + "; valid: crowd, " + Variant.ids().replace(",", ", ")
                        + ", or --tree/--model");
            }
        }
        boolean sleepy = variant == Variant.SLEEPY;
        var tree = variant != null ? variant.compile() : StateTreeTickBenchmark.crowdTree();
        int tag = sleepy ? tree.eventTagId(SleepyTrees.EVENT) : -1;
        int events = sleepy ? Math.max(1, agents / 1000) : 0;
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 1, workers, Impl.CHUNK)) {
            profile(out, variant != null ? variant.id() : "crowd tree", sys, agents, workers, ticks,
                    variant != null ? 1500 : 300, StateTreeTickBenchmark.DT, tag, events);
        }
    }

    /**
     * Starts {@code sys}, warms it up for {@code warmup} ticks, then times {@code ticks} more and prints
     * the tick, the sub-phases and the cost per awake agent; before each tick the host sends
     * {@code events} events tagged {@code tag} (none when {@code tag} is -1).
     */
    private static void profile(PrintStream out, String name, StateTreeSystem sys, int agents, int workers, int ticks,
                                int warmup, float dt, int tag, int events) {
        sys.startAll(0);
        long k = 1;
        for (int i = 0; i < warmup; i++, k++) {
            step(sys, k, dt, tag, events, agents);
        }
        sys.setTiming(true);
        sys.resetPhaseNanos();
        long awake = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < ticks; i++, k++) {
            step(sys, k, dt, tag, events, agents);
            awake += sys.awakeLastTick();
        }
        long wall = System.nanoTime() - t0;
        long[] ph = sys.phaseNanos();
        double per = (double) agents * ticks;
        out.printf(Locale.ROOT, "%s, %d agents, %d workers, %d ticks: %.3f ms/tick wall, %.2f ns/agent-tick,"
                + " %.0f awake per tick, %.0f ns per awake agent%n", name, agents, workers,
                ticks, wall / 1e6 / ticks, wall / per, (double) awake / ticks, wall / (double) Math.max(1, awake));
        for (int i = 0; i < ph.length; i++) {
            out.printf(Locale.ROOT, "  %-14s %6.2f ns/agent-tick, %6.1f ns per awake agent (CPU)%n",
                    StateTreeSystem.PHASES.get(i), ph[i] / per, ph[i] / (double) Math.max(1, awake));
        }
        out.println("  bytes/agent of tree instance data: " + sys.bytesPerAgent());
    }

    /** One tick; first, {@code events} host events to agents drawn as the compare harness draws them. */
    private static void step(StateTreeSystem sys, long tick, float dt, int tag, int events, int agents) {
        for (int j = 0; tag >= 0 && j < events; j++) {
            sys.sendEvent(CounterRng.below(agents, 1, j, tick, Logic.HOST_EVENT_STREAM, 0), tag, 0f, false);
        }
        sys.tickAll(tick, dt);
    }
}
