/**
 * JMH micro-benchmarks of the simulation core and the runnable jar's entry point.
 *
 * <p>{@link dev.crowdtree.bench.BenchMain} is the main class of {@code bench/target/benchmarks.jar}:
 * it hands its arguments to JMH, so the jar takes the usual JMH options, for example
 * {@code java -jar bench/target/benchmarks.jar PosVel -prof gc}. Benchmarks such as
 * {@link dev.crowdtree.bench.PosVelBenchmark} compare the sim-core chunk executor with a plain
 * Dominion query and with bare arrays (the floor) on the same per-agent work.
 */
package dev.crowdtree.bench;
