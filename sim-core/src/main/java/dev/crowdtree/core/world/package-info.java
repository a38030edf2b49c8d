/**
 * The world: agent ids and where each agent's row is, SoA tables for hot data, command buffers
 * applied at sync points, a Dominion instance for the host's sparse entities and the agents'
 * optional cold data, and the executor and clock that run phases over them.
 */
package dev.crowdtree.core.world;
