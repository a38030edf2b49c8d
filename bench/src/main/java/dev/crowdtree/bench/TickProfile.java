package dev.crowdtree.bench;

import dev.crowdtree.bench.compare.Logic;
import dev.crowdtree.bench.trees.SleepyTrees;
import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeSystem;

import java.util.Locale;

/**
 * Prints where a steady tick spends its time, per sub-phase (summed worker CPU time), for quick
 * profiling: {@code java -cp benchmarks.jar dev.crowdtree.bench.TickProfile [agents] [workers] [ticks] [crowd|sleepy]}.
 * {@code crowd} (the default) is the benchmark crowd tree; {@code sleepy} is the compare harness's
 * sleepy tree with its host events (one per 1,000 agents per tick, as {@code compare} sends them),
 * where the figures that matter are per agent awake in a tick: what one woken agent costs.
 */
public final class TickProfile {
    private TickProfile() {
    }

    public static void main(String[] args) throws Exception {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int ticks = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        boolean sleepy = args.length > 3 && args[3].equals("sleepy");
        CompiledStateTree tree = sleepy ? StateTreeCompiler.withBuiltins().compile(SleepyTrees.sleepy())
                : StateTreeTickBenchmark.crowdTree();
        int tag = sleepy ? tree.eventTagId(SleepyTrees.EVENT) : -1;
        int events = sleepy ? Math.max(1, agents / 1000) : 0;
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 1, workers, 4096)) {
            sys.startAll(0);
            long k = 1;
            for (int i = 0, warmup = sleepy ? 1500 : 300; i < warmup; i++, k++) { // sleepy: past the start's wave of wakes
                step(sys, k, tag, events, agents);
            }
            sys.setTiming(true);
            sys.resetPhaseNanos();
            long awake = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < ticks; i++, k++) {
                step(sys, k, tag, events, agents);
                awake += sys.awakeLastTick();
            }
            long wall = System.nanoTime() - t0;
            long[] ph = sys.phaseNanos();
            double per = (double) agents * ticks;
            System.out.printf(Locale.ROOT, "%s, %d agents, %d workers, %d ticks: %.3f ms/tick wall, %.2f ns/agent-tick,"
                    + " %.0f awake per tick, %.0f ns per awake agent%n", sleepy ? "sleepy" : "crowd tree", agents, workers,
                    ticks, wall / 1e6 / ticks, wall / per, (double) awake / ticks, wall / (double) Math.max(1, awake));
            for (int i = 0; i < ph.length; i++) {
                System.out.printf(Locale.ROOT, "  %-14s %6.2f ns/agent-tick, %6.1f ns per awake agent (CPU)%n",
                        StateTreeSystem.PHASES.get(i), ph[i] / per, ph[i] / (double) Math.max(1, awake));
            }
            System.out.println("  bytes/agent of tree instance data: " + sys.bytesPerAgent());
        }
    }

    /** One tick; for sleepy, first its host events to agents drawn as the compare harness draws them. */
    private static void step(StateTreeSystem sys, long tick, int tag, int events, int agents) {
        for (int j = 0; j < events; j++) {
            sys.sendEvent(CounterRng.below(agents, 1, j, tick, Logic.HOST_EVENT_STREAM, 0), tag, 0f, false);
        }
        sys.tickAll(tick, StateTreeTickBenchmark.DT);
    }
}
