package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.PayloadSchema;
import dev.crowdtree.statetree.compiled.RequiredEvents;
import dev.crowdtree.statetree.node.EventPayload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What both runtimes count payload mismatches under (docs/SEMANTICS.md section 8, rule E5): every
 * (event tag, field, reason) an onEvent transition or a required event (rule V6) with payload fields
 * of the tree could reject an event for, each given a dense index when a runtime is created, so that counting is an increment
 * in a {@code long[]} of {@link #size()} entries; and the rule itself, per state
 * ({@link #rejections}). A tree without payload fields has no keys, and counting is skipped.
 *
 * <p>Immutable; THREADING: safe to share between workers (each passes its own scratch).
 *
 * @hidden
 */
public final class PayloadMismatchKeys {
    private static final String[] TYPE_WORDS = {"absent", "bool", "int", "float"};

    private final CompiledStateTree t;
    private final PayloadSchema schema;
    private final int tags;
    /** {@code keyOf[(requirement * tags + eventTag) * 4 + sentType]}: the key, or -1 (accepted, or no such pair). */
    private final int[] keyOf;
    private final String[] keyTag;
    private final String[] keyField;
    private final String[] keyReason;
    /** The keys sorted by tag, field, reason. */
    private final int[] sorted;
    /** Transitions and required events with payload fields: the most keys one event can be counted under. */
    private final int readers;
    /** The states whose required event declares payload fields (rule V6). */
    private final int[] requiredReaders;

    /** The keys of {@code tree}. */
    public PayloadMismatchKeys(CompiledStateTree tree) {
        this.t = tree;
        this.schema = tree.payloads;
        this.tags = tree.tags().size();
        this.keyOf = new int[schema.requirementCount() * tags * 4];
        Arrays.fill(keyOf, -1);
        Map<List<String>, Integer> ids = new LinkedHashMap<>();
        int n = 0;
        for (int tr = 0; tr < tree.transitionCount; tr++) {
            if (reads(tr)) {
                n++;
                addKeys(tr, tree.transitionEvent(tr), ids);
            }
        }
        RequiredEvents required = tree.requiredEvents;
        List<Integer> requiredReaders = new ArrayList<>();
        for (int k = 0; k < required.count(); k++) {
            int s = required.state(k);
            if (schema.readsPayload(required.payloadSet(s))) {
                n++;
                requiredReaders.add(s);
                addKeys(required.payloadSet(s), required.tag(s), ids); // rule V6
            }
        }
        this.requiredReaders = requiredReaders.stream().mapToInt(Integer::intValue).toArray();
        readers = n;
        int size = ids.size();
        keyTag = new String[size];
        keyField = new String[size];
        keyReason = new String[size];
        ids.forEach((k, id) -> {
            keyTag[id] = k.get(0);
            keyField[id] = k.get(1);
            keyReason[id] = k.get(2);
        });
        List<Integer> order = new ArrayList<>(ids.values());
        order.sort(Comparator.<Integer, String>comparing(k -> keyTag[k]).thenComparing(k -> keyField[k])
                .thenComparing(k -> keyReason[k]));
        sorted = order.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The keys requirement set {@code set} (on tag {@code tag}) can reject an event for. */
    private void addKeys(int set, int tag, Map<List<String>, Integer> ids) {
        for (int i = schema.requirementsBegin(set), end = i + schema.requirementsNum(set); i < end; i++) {
            byte declared = schema.requiredType(i);
            for (int e = 0; e < tags; e++) {
                if (!t.tagMatches(tag, e)) {
                    continue;
                }
                for (byte sent = EventPayload.ABSENT; sent <= EventPayload.FLOAT; sent++) {
                    if (!PayloadSchema.accepts(declared, sent)) {
                        List<String> key = List.of(t.tagName(e), schema.fieldName(schema.requiredField(i)),
                                reason(sent, declared));
                        keyOf[(i * tags + e) * 4 + sent] = ids.computeIfAbsent(key, k -> ids.size());
                    }
                }
            }
        }
    }

    /** {@code missing}, or {@code wrong type (sent float, declared int)}. */
    private static String reason(byte sent, byte declared) {
        return sent == EventPayload.ABSENT ? "missing"
                : "wrong type (sent " + TYPE_WORDS[sent] + ", declared " + TYPE_WORDS[declared] + ")";
    }

    private boolean reads(int tr) {
        return t.transitionTrigger(tr) == CompiledStateTree.TRIGGER_EVENT && schema.readsPayload(tr);
    }

    /** How many keys there are (the length of a counts array); 0 for a tree without payload fields. */
    public int size() {
        return keyTag.length;
    }

    /** The length {@link #rejections}' {@code found} needs: the most keys one event can be counted under. */
    public int scratchSize() {
        return readers;
    }

    /**
     * Rule E5 for one state of the path an event became visible to: for each onEvent transition of
     * {@code state} with payload fields whose tag matches the event's {@code tag} but which rejects
     * the event (payload slots {@code types[off..)}), the key of its first declared field that fails
     * is added to {@code found[n..]} unless it is among {@code found[0..n)}. Returns the new
     * {@code n}. Allocates nothing.
     */
    public int rejections(int state, int tag, byte[] types, int off, int[] found, int n) {
        if (tag < 0) {
            return n;
        }
        for (int tr = t.stateTransitionsBegin(state), end = tr + t.stateTransitionsNum(state); tr < end; tr++) {
            if (reads(tr) && t.tagMatches(t.transitionEvent(tr), tag)) {
                n = rejection(tr, tag, types, off, found, n);
            }
        }
        return n;
    }

    /**
     * Rule V6: as {@link #rejections}, for every state of the tree whose required event declares
     * payload fields (wherever the agent's active path is: any of them may be selected by some
     * transition), once per event that becomes visible to its agent.
     */
    public int requiredRejections(int tag, byte[] types, int off, int[] found, int n) {
        if (tag < 0) {
            return n;
        }
        RequiredEvents required = t.requiredEvents;
        for (int s : requiredReaders) {
            if (t.tagMatches(required.tag(s), tag)) {
                n = rejection(required.payloadSet(s), tag, types, off, found, n);
            }
        }
        return n;
    }

    /** The key requirement set {@code set} rejects the event for, added to {@code found[n..]} unless there; the new n. */
    private int rejection(int set, int tag, byte[] types, int off, int[] found, int n) {
        int i = schema.firstMismatch(set, types, off);
        if (i < 0) {
            return n;
        }
        int key = keyOf[(i * tags + tag) * 4 + types[off + schema.requiredField(i)]];
        int k = 0;
        while (k < n && found[k] != key) {
            k++;
        }
        if (k == n) {
            found[n++] = key;
        }
        return n;
    }

    /** The keys with a count in {@code counts} (indexed by key), sorted by tag, field, reason. */
    public List<PayloadMismatch> report(long[] counts) {
        List<PayloadMismatch> out = new ArrayList<>();
        for (int k : sorted) {
            if (counts[k] != 0) {
                out.add(new PayloadMismatch(keyTag[k], keyField[k], keyReason[k], counts[k]));
            }
        }
        return out;
    }
}
