/**
 * The side-by-side comparison harness ({@code java -jar bench/target/benchmarks.jar compare}): the
 * same decision logic ({@link dev.crowdtree.bench.compare.Variant}: the hierarchical crowd tree, a
 * flat FSM-shaped tree, a sleepy tree of long delays fed by host events, and a behavior tree with
 * observer aborts: composites and priority transitions) run by our batched
 * runtime, our reference interpreter (every tick and scheduled), gdx-ai, Dominion and a
 * hand-written floor ({@link dev.crowdtree.bench.compare.Impl}), each run in a fresh JVM
 * ({@link dev.crowdtree.bench.compare.CompareRun}), reported as Markdown, JSON and an SVG chart
 * ({@link dev.crowdtree.bench.compare.CompareHarness}). The peers implement the logic by hand with
 * the random draws of our nodes ({@link dev.crowdtree.bench.compare.Logic}), so every
 * implementation reaches the same states from the same seed ({@code EquivalenceTest}). A user's tree
 * ({@link dev.crowdtree.bench.compare.UserTree}: {@code compare --model PATH}, {@code --nodes PATH
 * --tree FILE}) takes the variants' place on our batched runtime and the reference interpreter.
 */
package dev.crowdtree.bench.compare;
