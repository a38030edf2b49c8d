/** The crowd simulation: world, threats, smart objects, spatial grid, movement, and the tick. */
package dev.crowdtree.demo.sim;
