/** Counter-based randomness: draws keyed by (seed, agent, tick, stream), independent of scheduling. */
package dev.crowdtree.core.random;
