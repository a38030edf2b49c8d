/**
 * The side-by-side comparison harness ({@code java -jar bench/target/benchmarks.jar compare}): the
 * same decision logic ({@link dev.crowdtree.bench.compare.Variant}: the hierarchical crowd tree and
 * a flat FSM-shaped tree) run by our batched runtime, our reference interpreter, gdx-ai, Dominion
 * and a hand-written floor ({@link dev.crowdtree.bench.compare.Impl}), each run in a fresh JVM
 * ({@link dev.crowdtree.bench.compare.CompareRun}), reported as Markdown, JSON and an SVG chart
 * ({@link dev.crowdtree.bench.compare.CompareHarness}). The peers implement the logic by hand with
 * the random draws of our nodes ({@link dev.crowdtree.bench.compare.Logic}), so every
 * implementation reaches the same states from the same seed ({@code EquivalenceTest}).
 */
package dev.crowdtree.bench.compare;
