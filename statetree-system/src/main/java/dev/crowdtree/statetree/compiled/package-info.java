/** The compiled, immutable tree: flat arrays in DFS pre-order, shared by every runtime. */
package dev.crowdtree.statetree.compiled;
