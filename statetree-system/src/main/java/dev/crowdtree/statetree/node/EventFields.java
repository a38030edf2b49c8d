package dev.crowdtree.statetree.node;

/**
 * The payload of the event an {@code onEvent} transition's conditions are being tested against,
 * per row: what an {@code {"event": "volume"}} binding reads ({@link ValueInput#eventField}).
 * Implemented by each runtime; the value is defined only while such conditions run, and the field
 * is there with a type the transition declared (the runtime tries only events that carry them).
 *
 * @hidden
 */
public interface EventFields {
    /** The type of payload field {@code field} ({@link EventPayload#ABSENT} etc.). */
    byte eventFieldType(int row, int field);

    /** The raw value of payload field {@code field} (see {@link EventPayload#bits}). */
    int eventFieldBits(int row, int field);
}
