/**
 * Tracing and testing support: the canonical trace format, trace sinks, the per-agent reference
 * interpreter and the scenario runner used by the command line and the golden tests.
 */
package dev.crowdtree.statetree.trace;
