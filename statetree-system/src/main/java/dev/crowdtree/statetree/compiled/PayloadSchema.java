package dev.crowdtree.statetree.compiled;

import dev.crowdtree.statetree.node.EventPayload;
import dev.crowdtree.statetree.node.Payload;
import dev.crowdtree.statetree.node.ValueType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The event payload fields a tree can observe (docs/SEMANTICS.md section 8, rules E1-E5): the
 * names its onEvent transitions and its states' required events (rule V1) declare in
 * {@code payloadFields}, each given an id, and per requirement set the fields (with their types) an
 * event must carry to match it. Requirement set {@code tr} is transition {@code tr}'s; the required
 * events' follow the transitions' ({@link RequiredEvents#payloadSet}). The methods below name a set
 * {@code tr}. Fields nothing declares are dropped when an event is sent: nothing could read them.
 * Immutable.
 */
public final class PayloadSchema {
    private final String[] names;
    private final Map<String, Integer> ids = new HashMap<>();
    private final int valueField;
    private final int[] reqBegin;
    private final int[] reqNum;
    private final int[] reqField;
    private final byte[] reqType;

    /**
     * The schema of fields {@code names}: the requirement sets are the transitions' (set {@code tr}
     * for transition {@code tr}), then the required events' ({@link RequiredEvents#payloadSet}).
     */
    PayloadSchema(List<String> names, List<int[]> fieldsByTransition, List<byte[]> typesByTransition,
                  List<int[]> fieldsByRequiredEvent, List<byte[]> typesByRequiredEvent) {
        this(names, concat(fieldsByTransition, fieldsByRequiredEvent), concat(typesByTransition, typesByRequiredEvent));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private PayloadSchema(List<String> names, List<int[]> fieldsByTransition, List<byte[]> typesByTransition) {
        this.names = names.toArray(new String[0]);
        for (int i = 0; i < this.names.length; i++) {
            ids.put(this.names[i], i);
        }
        valueField = fieldId(Payload.VALUE);
        int n = fieldsByTransition.size();
        reqBegin = new int[n];
        reqNum = new int[n];
        int total = 0;
        for (int[] f : fieldsByTransition) {
            total += f.length;
        }
        reqField = new int[total];
        reqType = new byte[total];
        int at = 0;
        for (int tr = 0; tr < n; tr++) {
            int[] f = fieldsByTransition.get(tr);
            reqBegin[tr] = at;
            reqNum[tr] = f.length;
            System.arraycopy(f, 0, reqField, at, f.length);
            System.arraycopy(typesByTransition.get(tr), 0, reqType, at, f.length);
            at += f.length;
        }
    }

    /** The slot type of a declared field type. */
    public static byte slotType(ValueType t) {
        return t == ValueType.BOOL ? EventPayload.BOOL : t == ValueType.INT ? EventPayload.INT : EventPayload.FLOAT;
    }

    /** How many fields the tree can observe (the width of every event's payload in the runtimes). */
    public int fieldCount() {
        return names.length;
    }

    /** The id of field {@code name}, or -1 when no transition declares it. */
    public int fieldId(String name) {
        Integer id = ids.get(name);
        return id == null ? -1 : id;
    }

    /** Field {@code id}'s name. */
    public String fieldName(int id) {
        return names[id];
    }

    /** The id of {@code value} (a number payload), or -1. */
    public int valueField() {
        return valueField;
    }

    /** Whether transition {@code tr} declares payload fields (so each queued event is tried in turn). */
    public boolean readsPayload(int tr) {
        return reqNum[tr] != 0;
    }

    /**
     * Whether an event whose slots are {@code types[off..)} and {@code bits[off..)} carries every
     * field transition {@code tr} declares, each with its type (an int is accepted for a float).
     */
    public boolean matches(int tr, byte[] types, int off) {
        return firstMismatch(tr, types, off) < 0;
    }

    /**
     * The first field transition {@code tr} declares (in declared order) that an event whose slots
     * are {@code types[off..)} does not carry with its type, as a requirement index for
     * {@link #requiredField} and {@link #requiredType}; -1 when it carries them all.
     */
    public int firstMismatch(int tr, byte[] types, int off) {
        for (int i = reqBegin[tr], end = i + reqNum[tr]; i < end; i++) {
            if (!accepts(reqType[i], types[off + reqField[i]])) {
                return i;
            }
        }
        return -1;
    }

    /** Whether a field declared of slot type {@code declared} accepts a slot of type {@code sent} (an int for a float). */
    public static boolean accepts(byte declared, byte sent) {
        return sent == declared || (declared == EventPayload.FLOAT && sent == EventPayload.INT);
    }

    /** The requirements of transition {@code tr} are the indices {@code [requirementsBegin(tr), requirementsBegin(tr) + requirementsNum(tr))}. */
    public int requirementsBegin(int tr) {
        return reqBegin[tr];
    }

    /** How many fields transition {@code tr} declares. */
    public int requirementsNum(int tr) {
        return reqNum[tr];
    }

    /** The field id of requirement {@code i}. */
    public int requiredField(int i) {
        return reqField[i];
    }

    /** The declared slot type of requirement {@code i} ({@link EventPayload#BOOL}, {@code INT} or {@code FLOAT}). */
    public byte requiredType(int i) {
        return reqType[i];
    }

    /** How many requirements all transitions declare together. */
    public int requirementCount() {
        return reqField.length;
    }

    /** Fills {@code out} (emptied first) with the fields of {@code p} the tree can observe; returns it. */
    public EventPayload fill(Payload p, EventPayload out) {
        out.clear();
        if (p == null) {
            return out;
        }
        for (int i = 0; i < p.size(); i++) {
            int id = fieldId(p.name(i));
            if (id < 0) {
                continue;
            }
            switch (p.type(i)) {
                case EventPayload.BOOL:
                    out.setBool(id, p.bits(i) != 0);
                    break;
                case EventPayload.INT:
                    out.setInt(id, p.bits(i));
                    break;
                default:
                    out.setFloat(id, Float.intBitsToFloat(p.bits(i)));
            }
        }
        return out;
    }
}
