/**
 * The authoring model: trees, states, transitions and nodes exactly as written in a JSON asset or
 * with {@link dev.crowdtree.statetree.definition.StateTreeBuilder}. Values are kept raw so that the
 * compiler can check everything in one place and report every error at once.
 */
package dev.crowdtree.statetree.definition;
