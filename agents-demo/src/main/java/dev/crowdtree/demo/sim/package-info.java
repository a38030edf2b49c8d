/**
 * The crowd simulation: the agents' columns, threats and smart objects (Dominion entities of the
 * world, {@link dev.crowdtree.demo.sim.CrowdComponents}), spatial grid, movement, regions, and the
 * tick.
 */
package dev.crowdtree.demo.sim;
