/** Simulation time: the fixed-step clock. */
package dev.crowdtree.core.time;
