/** Tick and phase timing with HdrHistogram, and its printable summary. */
package dev.crowdtree.core.metrics;
