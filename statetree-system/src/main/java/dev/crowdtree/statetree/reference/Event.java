package dev.crowdtree.statetree.reference;

/**
 * {@code FStateTreeEvent}: a tag id (-1 for a tag no node uses) and an optional payload
 * (docs/SEMANTICS.md section 8).
 */
record Event(int tag, float payload, boolean hasPayload) {
}
