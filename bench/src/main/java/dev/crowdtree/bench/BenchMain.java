package dev.crowdtree.bench;

import org.openjdk.jmh.runner.RunnerException;

import java.io.IOException;

/**
 * Entry point of {@code benchmarks.jar}. The subcommand {@code compare} (the side-by-side throughput
 * harness) is reserved and not implemented yet; every other invocation is passed unchanged to
 * {@link org.openjdk.jmh.Main}, so the jar behaves like an ordinary JMH jar.
 */
public final class BenchMain {
    /** Exit status when a reserved subcommand is not available yet. */
    static final int EXIT_UNAVAILABLE = 2;

    private BenchMain() {
    }

    /**
     * Runs JMH with {@code args}, or reports that {@code compare} is not available yet (exit 2).
     *
     * @throws RunnerException when JMH fails to run the benchmarks
     * @throws IOException     when JMH cannot read its options or benchmark list
     */
    public static void main(String[] args) throws RunnerException, IOException {
        if (args.length > 0 && "compare".equals(args[0])) {
            System.err.println("compare: not yet available; see README");
            System.exit(EXIT_UNAVAILABLE);
            return;
        }
        org.openjdk.jmh.Main.main(args);
    }
}
