/**
 * The world: agent identity on Dominion, SoA tables for hot data, command buffers applied at sync
 * points, and the executor and clock that run phases over them.
 */
package dev.crowdtree.core.world;
