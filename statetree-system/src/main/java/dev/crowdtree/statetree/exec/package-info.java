/** The batched, chunk-parallel StateTree runtime and its per-agent SoA instance columns. */
package dev.crowdtree.statetree.exec;
