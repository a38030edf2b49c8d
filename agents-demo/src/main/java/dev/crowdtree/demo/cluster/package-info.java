/**
 * One crowd across several machines on Hazelcast (docs/SCALE.md): members that prove a shared
 * secret run the regions ({@code dev.crowdtree.demo.sim.Region}) the driver assigns them, one step
 * per tick behind a barrier, exchanging sealed messages through a Hazelcast map; every few ticks each
 * region writes a sealed checkpoint to a map with one backup, and a lost member's regions are
 * restored on the survivors, every region rolling back to the last checkpoint.
 */
package dev.crowdtree.demo.cluster;
