/** The crowd's StateTree node types: the perception evaluator and the movement, claim and shout tasks. */
package dev.crowdtree.demo.nodes;
