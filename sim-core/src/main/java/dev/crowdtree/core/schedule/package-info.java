/**
 * Scheduling: the chunk executor with long-lived workers and a barrier per phase, chunk views and
 * kernel contracts.
 */
package dev.crowdtree.core.schedule;
