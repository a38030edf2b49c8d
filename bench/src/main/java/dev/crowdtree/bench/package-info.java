/**
 * JMH micro-benchmarks of the simulation core, the side-by-side comparison harness, and the runnable
 * jar's entry point.
 *
 * <p>{@link dev.crowdtree.bench.BenchMain} is the main class of {@code bench/target/benchmarks.jar}:
 * {@code java -jar bench/target/benchmarks.jar compare [options]} runs the comparison harness
 * ({@link dev.crowdtree.bench.compare.CompareHarness}); any other arguments go to JMH, so the jar
 * also takes the usual JMH options, for example {@code java -jar bench/target/benchmarks.jar PosVel -prof gc}.
 * Benchmarks such as {@link dev.crowdtree.bench.PosVelBenchmark} compare the sim-core chunk executor
 * with a plain Dominion query and with bare arrays (the floor) on the same per-agent work.
 * {@link dev.crowdtree.bench.trees.FlatTrees} is the flat, FSM-shaped variant of the benchmark logic.
 */
package dev.crowdtree.bench;
