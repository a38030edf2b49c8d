/**
 * The benchmark's trees besides the crowd tree ({@code CrowdTrees.crowd()}): the flat, FSM-shaped
 * variant, the sleepy one and the aborts one (a behavior tree with observer aborts), run by the
 * comparison harness and the soak.
 */
package dev.crowdtree.bench.trees;
