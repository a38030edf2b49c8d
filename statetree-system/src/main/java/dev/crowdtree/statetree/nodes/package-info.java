/** Built-in tasks, conditions and evaluators, and {@link dev.crowdtree.statetree.nodes.BuiltinNodes}. */
package dev.crowdtree.statetree.nodes;
