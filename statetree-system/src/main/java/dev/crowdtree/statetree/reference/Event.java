package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.node.EventPayload;

/**
 * {@code FStateTreeEvent}: a tag id (-1 for a tag no node uses) and a payload, one slot per payload
 * field the tree knows (docs/SEMANTICS.md section 8): {@code types[f]} {@link EventPayload#ABSENT}
 * or the field's type, {@code bits[f]} its value.
 */
record Event(int tag, byte[] types, int[] bits) {
    /** An event with a copy of {@code payload} (null: none) over {@code width} fields. */
    static Event of(int tag, EventPayload payload, int width) {
        byte[] t = new byte[width];
        int[] b = new int[width];
        if (payload != null) {
            payload.copyTo(t, b, 0);
        }
        return new Event(tag, t, b);
    }
}
