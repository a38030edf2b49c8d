/**
 * The soak: {@code benchmarks.jar soak} runs one batched StateTree runtime for a long time under host
 * activity and checks that the heap after GC stays flat and that no node fails
 * ({@link dev.crowdtree.bench.soak.SoakHarness}).
 */
package dev.crowdtree.bench.soak;
