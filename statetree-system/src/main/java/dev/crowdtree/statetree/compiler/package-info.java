/**
 * The compiler: checks an authored tree against the node schemas and scope rules, reports every
 * error at once, and flattens the tree into a {@link dev.crowdtree.statetree.compiled.CompiledStateTree}.
 */
package dev.crowdtree.statetree.compiler;
