package dev.crowdtree.statetree.compiled;

import dev.crowdtree.statetree.node.EventPayload;

import java.util.ArrayList;
import java.util.List;

/**
 * The states' required events to enter (Unreal 5.5's Required Event to Enter; docs/SEMANTICS.md
 * section 18, rules V1-V6): per state, the tag an event of the agent's window must have (the tag or
 * one below it) for SelectStateInternal to select the state, the payload fields it must carry
 * (a requirement set of {@link PayloadSchema}, after the transitions' ones), whether the event is
 * consumed when the transition that selected the state fires, and the slots that keep the declared
 * fields of that event while the state is active, which its tasks read. Both runtimes read it; in a
 * tree without required events {@link #any} is false and they look no further.
 *
 * <p>THREADING: immutable after construction; safe to share.
 */
public final class RequiredEvents {
    /** Per state: the required tag id, or -1 for none. */
    private final int[] tag;
    private final boolean[] consume;
    /** Per state: its requirement set in {@link PayloadSchema} (-1 for none). */
    private final int[] set;
    /** Per state: its kept fields are {@code [keptBegin[s], keptBegin[s + 1])}. */
    private final int[] keptBegin;
    private final int[] keptField;
    private final byte[] keptType;
    private final int[] keptSlot;
    /** The states with a required event, in id order. */
    private final int[] states;
    private final boolean[][] tagCovers;
    private final PayloadSchema payloads;
    /** Whether some state has a required event. */
    public final boolean any;

    RequiredEvents(CompiledTreeBuilder b, int transitionCount, boolean[][] tagCovers, PayloadSchema payloads) {
        int n = b.stateRequired.size();
        this.tagCovers = tagCovers;
        this.payloads = payloads;
        tag = new int[n];
        consume = new boolean[n];
        set = new int[n];
        keptBegin = new int[n + 1];
        List<Integer> withEvent = new ArrayList<>();
        int kept = 0;
        for (int s = 0; s < n; s++) {
            int k = b.stateRequired.get(s);
            keptBegin[s] = kept;
            tag[s] = k < 0 ? -1 : b.requiredTag.get(k);
            set[s] = k < 0 ? -1 : transitionCount + k;
            consume[s] = k >= 0 && b.requiredConsume.get(k);
            if (k >= 0) {
                withEvent.add(s);
                kept += b.requiredSlots.get(k).length;
            }
        }
        keptBegin[n] = kept;
        keptField = new int[kept];
        keptType = new byte[kept];
        keptSlot = new int[kept];
        for (int s : withEvent) {
            int k = b.stateRequired.get(s);
            int[] slots = b.requiredSlots.get(k);
            System.arraycopy(b.requiredPayloadFields.get(k), 0, keptField, keptBegin[s], slots.length);
            System.arraycopy(b.requiredPayloadTypes.get(k), 0, keptType, keptBegin[s], slots.length);
            System.arraycopy(slots, 0, keptSlot, keptBegin[s], slots.length);
        }
        states = withEvent.stream().mapToInt(Integer::intValue).toArray();
        any = states.length > 0;
    }

    /** Whether state {@code s} has a required event. */
    public boolean has(int s) {
        return tag[s] >= 0;
    }

    /** The tag id state {@code s} requires (-1: none). */
    public int tag(int s) {
        return tag[s];
    }

    /** Whether state {@code s}'s event is consumed when the transition that selected it fires ({@code consumeEvent}). */
    public boolean consumes(int s) {
        return consume[s];
    }

    /** State {@code s}'s payload fields as a requirement set of {@link PayloadSchema} ({@code matches}, {@code firstMismatch}). */
    public int payloadSet(int s) {
        return set[s];
    }

    /** How many states have a required event; {@link #state} lists them in id order. */
    public int count() {
        return states.length;
    }

    /** The {@code k}-th state with a required event, in id order. */
    public int state(int k) {
        return states[k];
    }

    /**
     * Whether an event tagged {@code eventTag} (the id it travels with) whose payload slots are
     * {@code types[off..)} matches state {@code s}'s required event: its tag is the required one or
     * below it, and it carries every declared field with its type (an int for a float).
     */
    public boolean matches(int s, int eventTag, byte[] types, int off) {
        return eventTag >= 0 && tagCovers[tag[s]][eventTag] && payloads.matches(set[s], types, off);
    }

    /**
     * Rule V5: copies the declared fields of the event (payload slots {@code types[off..)},
     * {@code bits[off..)}) that entered state {@code s} into the state's slots of {@code row} (an
     * int becomes a float for a field declared float, as a binding reads it).
     */
    public void keep(int s, byte[] types, int[] bits, int off, float[][] floats, int[][] ints, byte[][] bools, int row) {
        for (int i = keptBegin[s], end = keptBegin[s + 1]; i < end; i++) {
            byte sent = types[off + keptField[i]];
            int value = bits[off + keptField[i]];
            switch (keptType[i]) {
                case EventPayload.BOOL:
                    bools[keptSlot[i]][row] = (byte) (value != 0 ? 1 : 0);
                    break;
                case EventPayload.INT:
                    ints[keptSlot[i]][row] = value;
                    break;
                default:
                    floats[keptSlot[i]][row] = EventPayload.asFloat(sent, value);
            }
        }
    }
}
