/**
 * The node contracts: {@link dev.crowdtree.statetree.node.Task},
 * {@link dev.crowdtree.statetree.node.Condition} and {@link dev.crowdtree.statetree.node.Evaluator}
 * are batch kernels over SoA rows; {@link dev.crowdtree.statetree.node.NodeType} declares a type's
 * properties and per-agent fields; {@link dev.crowdtree.statetree.node.NodeContext} is what a
 * kernel sees at run time.
 */
package dev.crowdtree.statetree.node;
