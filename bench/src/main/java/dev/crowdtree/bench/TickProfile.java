package dev.crowdtree.bench;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;

import java.util.Locale;

/**
 * Prints where a steady tick of the benchmark crowd tree spends its time, per sub-phase (summed
 * worker CPU time), for quick profiling: {@code java -cp benchmarks.jar dev.crowdtree.bench.TickProfile [agents] [workers] [ticks]}.
 */
public final class TickProfile {
    private TickProfile() {
    }

    public static void main(String[] args) {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int ticks = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        CompiledStateTree tree = StateTreeTickBenchmark.crowdTree();
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 1, workers, 4096)) {
            sys.startAll(0);
            long k = 1;
            for (; k <= 300; k++) {
                sys.tickAll(k, StateTreeTickBenchmark.DT);
            }
            sys.setTiming(true);
            sys.resetPhaseNanos();
            long t0 = System.nanoTime();
            for (int i = 0; i < ticks; i++, k++) {
                sys.tickAll(k, StateTreeTickBenchmark.DT);
            }
            long wall = System.nanoTime() - t0;
            long[] ph = sys.phaseNanos();
            double per = (double) agents * ticks;
            System.out.printf(Locale.ROOT, "%d agents, %d workers, %d ticks: %.2f ms/tick wall, %.1f ns/agent-tick%n",
                    agents, workers, ticks, wall / 1e6 / ticks, wall / per);
            for (int i = 0; i < ph.length; i++) {
                System.out.printf(Locale.ROOT, "  %-14s %6.1f ns/agent-tick (CPU)%n", StateTreeSystem.PHASES.get(i), ph[i] / per);
            }
            System.out.println("  bytes/agent of tree instance data: " + sys.bytesPerAgent());
        }
    }
}
