package dev.crowdtree.bench;

import dev.crowdtree.bench.compare.CompareHarness;
import dev.crowdtree.bench.soak.SoakHarness;
import org.openjdk.jmh.runner.RunnerException;

import java.io.IOException;
import java.util.Arrays;

/**
 * Entry point of {@code benchmarks.jar}. The subcommand {@code compare} runs the side-by-side
 * comparison harness ({@link CompareHarness}: {@code java -jar bench/target/benchmarks.jar compare --help}),
 * {@code soak} the long run with a heap and failure check ({@link SoakHarness}: {@code soak --help});
 * every other invocation is passed unchanged to {@link org.openjdk.jmh.Main}, so the jar behaves
 * like an ordinary JMH jar.
 */
public final class BenchMain {
    private BenchMain() {
    }

    /**
     * Runs {@code compare}, {@code soak} or JMH with {@code args}.
     *
     * @throws RunnerException      when JMH fails to run the benchmarks
     * @throws IOException          when JMH cannot read its options or the harness cannot write its outputs
     * @throws InterruptedException when the harness is interrupted while waiting for a run
     */
    public static void main(String[] args) throws RunnerException, IOException, InterruptedException {
        if (args.length > 0 && "compare".equals(args[0])) {
            int status = CompareHarness.main(Arrays.copyOfRange(args, 1, args.length), System.out);
            System.out.flush();
            System.exit(status);
            return;
        }
        if (args.length > 0 && "soak".equals(args[0])) {
            int status = SoakHarness.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err);
            System.out.flush();
            System.exit(status);
            return;
        }
        org.openjdk.jmh.Main.main(args);
    }
}
