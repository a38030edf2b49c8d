/**
 * Struct-of-arrays storage: typed primitive columns, dense tables with swap-remove, and row handles.
 * Storage knows nothing of agents' behaviour, queries or scheduling.
 */
package dev.crowdtree.core.storage;
