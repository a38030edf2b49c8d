package dev.crowdtree.statetree.node;

import java.util.Arrays;

/**
 * An event's payload in the form the runtimes carry it: one slot per payload field the tree knows
 * ({@code compiled.PayloadSchema}), each absent or holding a bool, an int or a float. A node that
 * sends a payload fills the worker's scratch ({@link NodeContext#payload()}) and passes it to
 * {@link NodeContext#sendEvent(int, int, EventPayload)}; the runtime copies it, so the scratch can
 * be refilled at once. Field ids come from the tree ({@code CompiledStateTree.payloads().fieldId}).
 *
 * <p>Mutable, not thread-safe: each worker has its own.
 */
public final class EventPayload {
    /** Slot types. */
    public static final byte ABSENT = 0, BOOL = 1, INT = 2, FLOAT = 3;

    private final byte[] types;
    private final int[] bits;

    /** An empty payload over {@code fieldCount} fields. */
    public EventPayload(int fieldCount) {
        types = new byte[fieldCount];
        bits = new int[fieldCount];
    }

    /** How many fields the tree knows. */
    public int fieldCount() {
        return types.length;
    }

    /** Makes every field absent; returns this. */
    public EventPayload clear() {
        Arrays.fill(types, ABSENT);
        Arrays.fill(bits, 0); // an absent field holds 0, so equal payloads have equal slots
        return this;
    }

    public void setBool(int field, boolean value) {
        types[field] = BOOL;
        bits[field] = value ? 1 : 0;
    }

    public void setInt(int field, int value) {
        types[field] = INT;
        bits[field] = value;
    }

    public void setFloat(int field, float value) {
        types[field] = FLOAT;
        bits[field] = Float.floatToRawIntBits(value);
    }

    /** Sets {@code field} from {@code input} as read for {@code row}, with the input's type. */
    public void set(int field, ValueInput input, NodeContext ctx, int row) {
        switch (input.type()) {
            case BOOL:
                setBool(field, input.getBool(ctx, row));
                break;
            case INT:
                setInt(field, input.getInt(ctx, row));
                break;
            default:
                setFloat(field, input.getFloat(ctx, row));
        }
    }

    /** The type of {@code field}: {@link #ABSENT}, {@link #BOOL}, {@link #INT} or {@link #FLOAT}. */
    public byte type(int field) {
        return types[field];
    }

    /** The raw value of {@code field}: 0/1, the int, or the float's bits. */
    public int bits(int field) {
        return bits[field];
    }

    /**
     * Copies the slots to {@code t[off..)} and {@code b[off..)} (runtime use).
     *
     * @hidden
     */
    public void copyTo(byte[] t, int[] b, int off) {
        System.arraycopy(types, 0, t, off, types.length);
        System.arraycopy(bits, 0, b, off, bits.length);
    }

    /** Reads a slot value as a float (an int or bool widens). */
    public static float asFloat(byte type, int bits) {
        return type == FLOAT ? Float.intBitsToFloat(bits) : bits;
    }

    /** Reads a slot value as an int (a float truncates). */
    public static int asInt(byte type, int bits) {
        return type == FLOAT ? (int) Float.intBitsToFloat(bits) : bits;
    }
}
