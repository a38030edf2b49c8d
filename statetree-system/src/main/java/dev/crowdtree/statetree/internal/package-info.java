/**
 * What both runtimes share and nobody else should use: the order of children a selection tries
 * ({@link dev.crowdtree.statetree.internal.ChildOrder}), parameter value checks, a tree's snapshot
 * fingerprint, host declaration lookups, the exact countdown of timers, linked states' parameters
 * and states' own parameters. Not exported by the module and not part of the API: it may change in
 * any release.
 */
package dev.crowdtree.statetree.internal;
