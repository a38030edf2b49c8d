/**
 * The benchmark's trees besides the crowd tree ({@code CrowdTrees.crowd()}): the flat, FSM-shaped
 * variant and the sleepy one, shared by the JMH benchmarks and the comparison harness.
 */
package dev.crowdtree.bench.trees;
