package dev.crowdtree.statetree.node;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An event payload as the host gives it ({@code StateTreeRuntime.sendEvent(agent, tag, payload)},
 * a scenario's {@code "payload"}): named bool, int or float fields. A number payload is the single
 * float field {@link #VALUE}. Field names are non-empty and not one of {@link #RESERVED} (in an
 * asset, an object with one of those keys is a binding). Immutable, ordered by field name, and
 * comparable, so events from several threads can be put in one canonical order.
 */
public final class Payload implements Comparable<Payload> {
    /** The field a number payload is read as. */
    public static final String VALUE = "value";
    /** Names that cannot be fields: the keys of bindings and property functions. */
    public static final List<String> RESERVED = List.of("param", "eval", "task", "fn", "event");

    private final String[] names;
    private final byte[] types;
    private final int[] bits;

    private Payload(String[] names, byte[] types, int[] bits) {
        this.names = names;
        this.types = types;
        this.bits = bits;
    }

    /**
     * The number payload: {@code {"value": value}}.
     *
     * @throws IllegalArgumentException for NaN or an infinity
     */
    public static Payload number(float value) {
        if (!Float.isFinite(value)) {
            throw new IllegalArgumentException("payload value " + value + " is not valid; give a finite number");
        }
        return new Payload(new String[] {VALUE}, new byte[] {EventPayload.FLOAT},
                new int[] {Float.floatToRawIntBits(value)});
    }

    /**
     * A payload of the given fields: Boolean gives a bool field; Integer, Short, Byte, or a Long
     * in the 32-bit range an int field; Float or Double (finite, within float range) a float field.
     *
     * @throws IllegalArgumentException naming the field, for a reserved or empty name or a value
     *                                  of another kind or out of range
     */
    public static Payload of(Map<String, ?> fields) {
        TreeMap<String, Object> sorted = new TreeMap<>();
        for (Map.Entry<String, ?> e : fields.entrySet()) {
            String name = e.getKey();
            if (name == null || name.isEmpty() || RESERVED.contains(name)) {
                throw new IllegalArgumentException("payload field name " + (name == null ? "null" : "'" + name + "'")
                        + " is not allowed (not empty, and not one of " + RESERVED + ")");
            }
            sorted.put(name, e.getValue());
        }
        int n = sorted.size();
        String[] names = new String[n];
        byte[] types = new byte[n];
        int[] bits = new int[n];
        int i = 0;
        for (Map.Entry<String, Object> e : sorted.entrySet()) {
            names[i] = e.getKey();
            Object v = e.getValue();
            if (v instanceof Boolean) {
                types[i] = EventPayload.BOOL;
                bits[i] = (Boolean) v ? 1 : 0;
            } else if (v instanceof Integer || v instanceof Short || v instanceof Byte
                    || (v instanceof Long && (long) (Long) v == (int) (long) (Long) v)) {
                types[i] = EventPayload.INT;
                bits[i] = ((Number) v).intValue();
            } else if ((v instanceof Float || v instanceof Double) && Double.isFinite(((Number) v).doubleValue())
                    && Math.abs(((Number) v).doubleValue()) <= Float.MAX_VALUE) {
                types[i] = EventPayload.FLOAT;
                bits[i] = Float.floatToRawIntBits(((Number) v).floatValue());
            } else {
                throw new IllegalArgumentException("payload field '" + e.getKey() + "': expected a boolean, a 32-bit "
                        + "integer or a finite float, got " + (v == null ? "null" : v + " (" + v.getClass().getSimpleName() + ")"));
            }
            i++;
        }
        return new Payload(names, types, bits);
    }

    /** How many fields. */
    public int size() {
        return names.length;
    }

    /** Field {@code i}'s name (fields are ordered by name). */
    public String name(int i) {
        return names[i];
    }

    /** Field {@code i}'s type ({@link EventPayload#BOOL}, {@link EventPayload#INT} or {@link EventPayload#FLOAT}). */
    public byte type(int i) {
        return types[i];
    }

    /** Field {@code i}'s raw value (see {@link EventPayload#bits}). */
    public int bits(int i) {
        return bits[i];
    }

    @Override
    public int compareTo(Payload o) {
        int n = Math.min(size(), o.size());
        for (int i = 0; i < n; i++) {
            int c = names[i].compareTo(o.names[i]);
            if (c == 0) {
                c = Byte.compare(types[i], o.types[i]);
            }
            if (c == 0) {
                c = Integer.compare(bits[i], o.bits[i]);
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(size(), o.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Payload && Arrays.equals(names, ((Payload) o).names)
                && Arrays.equals(types, ((Payload) o).types) && Arrays.equals(bits, ((Payload) o).bits);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(names) * 31 + Arrays.hashCode(bits);
    }

    /** {@code {volume=12.5, loud=true}}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < names.length; i++) {
            b.append(i == 0 ? "" : ", ").append(names[i]).append('=');
            b.append(types[i] == EventPayload.BOOL ? String.valueOf(bits[i] != 0)
                    : types[i] == EventPayload.INT ? String.valueOf(bits[i]) : String.valueOf(Float.intBitsToFloat(bits[i])));
        }
        return b.append('}').toString();
    }
}
