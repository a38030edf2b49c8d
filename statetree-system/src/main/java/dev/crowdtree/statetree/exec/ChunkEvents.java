package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.PayloadSchema;
import dev.crowdtree.statetree.compiled.RequiredEvents;
import dev.crowdtree.statetree.node.EventFields;
import dev.crowdtree.statetree.node.EventOutbox;
import dev.crowdtree.statetree.node.EventPayload;

import java.util.Arrays;

/**
 * The events of the chunk being run (docs/SEMANTICS.md section 8): per local row, the list E of
 * events the agent sees in this tick's transitions and the list P of events it sent itself during
 * ExitState/EnterState (seen in the next round, or carried to its next tick), both over one pooled
 * linked list that is emptied at every chunk. Also the {@link EventOutbox} of the worker's
 * {@code NodeContext}: events to self go to E or P by {@link #outboxMode}, events to other agents to
 * the chunk's output. Also the {@link EventFields} that {@code {"event": ...}} bindings read: per
 * row, the event an onEvent transition with {@code payloadFields}, or a state's required event
 * (rules V2-V5, with the events the selection chose per depth), is being tested against. And the
 * payload mismatches of rule E5: an event is counted when it enters E (at the chunk's collect, when
 * sent to self during the evaluator and task ticks, or moved from P at the next round) against the
 * row's active path at that moment, into the chunk's output.
 *
 * <p>Allocation: only when the pool grows past its high-water mark, or in {@link #ensureCapacity}.
 * THREADING: confined to its worker.
 */
final class ChunkEvents implements EventOutbox, EventFields {
    /** Outbox modes: events to self go to E (this tick) or to P (next round / next tick). */
    static final int TO_E = 0, TO_P = 1;
    private static final int EV_INITIAL = 1024;

    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final CompiledStateTree t;
    private final PayloadSchema schema;
    /** Rule E5's keys, or null for a tree without payload fields (nothing to count); scratch for one event's keys. */
    private final PayloadMismatchKeys mismatchKeys;
    private final int[] mismatchFound;
    /** Payload slots per event. */
    private final int width;
    int outboxMode;

    // per-row event lists (by local row) over a pooled linked list; heads are -1 outside X
    int[] eHead = new int[0];
    private int[] eTail = new int[0];
    private int[] pHead = new int[0];
    private int[] pTail = new int[0];
    /** Per local row: events in E and in P, each capped at {@link StateTreeRuntime#MAX_PENDING_EVENTS}. */
    private int[] eCount = new int[0];
    private int[] pCount = new int[0];
    /** Per local row: the event being tested ({@link #eventFieldType}) and the one that passed. */
    private int[] cur = new int[0];
    private int[] chosen = new int[0];
    // the chunk's events this tick, a linked list per row; room for 1,024 before the first growth
    private int[] evTag = new int[EV_INITIAL];
    private byte[] evTypes;
    private int[] evBits;
    private boolean[] evDead = new boolean[EV_INITIAL];
    private int[] evNext = new int[EV_INITIAL];
    private int evSize;
    /** The tree's required events (rules V2-V5). */
    private final RequiredEvents required;
    /**
     * Per local row and depth ({@code local * MAX_DEPTH + depth}): the event a state with a required
     * event was selected with, in the selection being tried ({@link #tryRequired}) and in the last
     * one that succeeded ({@link #commitRequired}), which the transition that fires enters with.
     */
    private int[] reqTrial = new int[0];
    private int[] reqChosen = new int[0];

    ChunkEvents(ChunkBinding state, ExtraAgents extra, PayloadMismatchKeys keys) {
        this.t = state.t;
        this.st = state;
        this.extra = extra;
        this.schema = t.payloads;
        this.width = schema.fieldCount();
        this.mismatchKeys = keys.size() == 0 ? null : keys;
        this.mismatchFound = new int[keys.scratchSize()];
        evTypes = new byte[EV_INITIAL * width];
        evBits = new int[EV_INITIAL * width];
        this.required = t.requiredEvents;
    }

    /** Sizes the per-row lists for chunks of {@code n} rows (with the other parts, {@link ChunkRunner#ensureCapacity}). */
    void ensureCapacity(int n) {
        eHead = new int[n];
        eTail = new int[n];
        pHead = new int[n];
        pTail = new int[n];
        eCount = new int[n];
        pCount = new int[n];
        cur = new int[n];
        chosen = new int[n];
        Arrays.fill(eHead, -1);
        Arrays.fill(pHead, -1);
        if (required.any) {
            reqTrial = new int[n * CompiledStateTree.MAX_DEPTH];
            reqChosen = new int[n * CompiledStateTree.MAX_DEPTH];
        }
    }

    /** Empties the pool for a new chunk. */
    void clear() {
        evSize = 0;
    }

    /** Empties row {@code local}'s E (at the end of the chunk's tick). */
    void clearRow(int local) {
        eHead[local] = -1;
        eCount[local] = 0;
    }

    /**
     * Appends an event whose payload slots are at {@code off} of {@code types} and {@code bits};
     * an event beyond the row's cap is dropped and counted in the chunk's output.
     */
    void append(int local, int tag, byte[] types, int[] bits, int off, boolean toE) {
        int e = append(local, tag, toE);
        if (e < 0) {
            return;
        }
        System.arraycopy(types, off, evTypes, e * width, width);
        System.arraycopy(bits, off, evBits, e * width, width);
        if (toE) {
            countMismatches(local, e);
        }
    }

    private void append(int local, int tag, EventPayload payload, boolean toE) {
        int e = append(local, tag, toE);
        if (e < 0) {
            return;
        } else if (payload != null) {
            payload.copyTo(evTypes, evBits, e * width);
        } else {
            Arrays.fill(evTypes, e * width, e * width + width, EventPayload.ABSENT);
            Arrays.fill(evBits, e * width, e * width + width, 0);
        }
        if (toE) {
            countMismatches(local, e);
        }
    }

    /**
     * Event {@code e} just became visible to row {@code local} (entered E): counted for the
     * {@link Recorder} by tag when recording; and rule E5: counts the keys under which the onEvent transitions with payload fields on the row's active path reject
     * it, once per key.
     */
    private void countMismatches(int local, int e) {
        if (st.recording) {
            Recorder.count(st.out.arrived, st.out.arrivedIds, evTag[e], st.ids[st.base + local]); // the Recorder's events arrived per tag
        }
        if (mismatchKeys == null) {
            return;
        }
        final int[] found = mismatchFound;
        int n = 0;
        for (int s = st.stateOf(st.base + local) - 1; s >= 0; s = t.stateParent(s)) {
            n = mismatchKeys.rejections(s, evTag[e], evTypes, e * width, found, n);
        }
        n = mismatchKeys.requiredRejections(evTag[e], evTypes, e * width, found, n); // rule V6
        final long[] counts = st.out.payloadMismatches;
        for (int i = 0; i < n; i++) {
            counts[found[i]]++;
        }
    }

    private int append(int local, int tag, boolean toE) {
        int[] count = toE ? eCount : pCount;
        if (count[local] >= StateTreeRuntime.MAX_PENDING_EVENTS) {
            st.out.overflow++;
            return -1;
        }
        count[local]++;
        if (evSize == evTag.length) {
            int m = evSize * 2;
            evTag = Arrays.copyOf(evTag, m);
            evTypes = Arrays.copyOf(evTypes, m * width);
            evBits = Arrays.copyOf(evBits, m * width);
            evDead = Arrays.copyOf(evDead, m);
            evNext = Arrays.copyOf(evNext, m);
        }
        int e = evSize++;
        evTag[e] = tag;
        evDead[e] = false;
        evNext[e] = -1;
        int[] head = toE ? eHead : pHead;
        int[] tail = toE ? eTail : pTail;
        if (head[local] < 0) {
            head[local] = e;
        } else {
            evNext[tail[local]] = e;
        }
        tail[local] = e;
        return e;
    }

    /** Whether row {@code local} sees an event that transition {@code tr} matches (tag, and declared payload fields). */
    boolean hasEvent(int local, int tr) {
        return nextMatch(local, -1, tr) >= 0;
    }

    private boolean matches(int e, int tr) {
        return !evDead[e] && t.tagMatches(t.transitionEvent(tr), evTag[e])
                && (!schema.readsPayload(tr) || schema.matches(tr, evTypes, e * width));
    }

    /** The first event of row {@code local} after {@code e} (-1: from the start) that {@code tr} matches, or -1. */
    int nextMatch(int local, int e, int tr) {
        for (e = e < 0 ? eHead[local] : evNext[e]; e >= 0; e = evNext[e]) {
            if (matches(e, tr)) {
                return e;
            }
        }
        return -1;
    }

    /**
     * Rules V2, V3: the first event of row {@code local}'s E after {@code e} (-1: from the start)
     * that state {@code s}'s required event matches (tag, and declared payload fields), or -1.
     */
    int nextRequired(int local, int e, int s) {
        for (e = e < 0 ? eHead[local] : evNext[e]; e >= 0; e = evNext[e]) {
            if (!evDead[e] && required.matches(s, evTag[e], evTypes, e * width)) {
                return e;
            }
        }
        return -1;
    }

    /** Whether event {@code e} (-1: none) of row {@code local}'s E is alive and matches state {@code s}'s required event. */
    boolean requiredMatches(int local, int e, int s) {
        return e >= 0 && !evDead[e] && required.matches(s, evTag[e], evTypes, e * width);
    }

    /** Event {@code e} as a {@code why} line names it ({@link TraceFormat#event}). */
    String describe(int e) {
        return TraceFormat.event(t, evTag[e], evTypes, evBits, e * width);
    }

    /**
     * The event onEvent transition {@code tr} of row {@code local} fired on: the chosen one when
     * {@code tr} reads a payload, else its first match.
     */
    int firedEvent(int local, int tr) {
        return schema.readsPayload(tr) ? chosen[local] : nextMatch(local, -1, tr);
    }

    /** In the selection being tried, row {@code local}'s state at {@code depth} takes event {@code e} (rules V2, V3). */
    void tryRequired(int local, int depth, int e) {
        reqTrial[local * CompiledStateTree.MAX_DEPTH + depth] = e;
    }

    /** The selection just tried for row {@code local} succeeded: its events are the ones a transition to it enters with. */
    void commitRequired(int local) {
        int at = local * CompiledStateTree.MAX_DEPTH;
        System.arraycopy(reqTrial, at, reqChosen, at, CompiledStateTree.MAX_DEPTH);
    }

    /**
     * Rules V4, V5: row {@code r}'s state {@code s} at {@code depth}, which has a required event, is
     * entered with the event it was selected with: its declared fields are kept in the state's
     * slots, and the event is consumed unless {@code "consumeEvent": false} (once, whoever else
     * consumed it).
     */
    void enterRequired(int r, int depth, int s, float[][] floats, int[][] ints, byte[][] bools) {
        int e = reqChosen[(r - st.base) * CompiledStateTree.MAX_DEPTH + depth];
        required.keep(s, evTypes, evBits, e * width, floats, ints, bools, r);
        if (required.consumes(s)) {
            evDead[e] = true;
        }
    }

    /** Makes event {@code e} the one row {@code local}'s {@code {"event": ...}} bindings read. */
    void test(int local, int e) {
        cur[local] = e;
    }

    /** Event {@code e} passed row {@code local}'s transition: it is the one consumed if that transition fires. */
    void choose(int local, int e) {
        chosen[local] = e;
    }

    /** Consumes the event that fired transition {@code tr}: the chosen one when it reads a payload, else the first it matches. */
    void consumeEvent(int local, int tr) {
        int e = firedEvent(local, tr);
        if (e >= 0) {
            evDead[e] = true;
        }
    }

    @Override
    public byte eventFieldType(int row, int field) {
        return evTypes[cur[row - st.base] * width + field];
    }

    @Override
    public int eventFieldBits(int row, int field) {
        return evBits[cur[row - st.base] * width + field];
    }

    void movePendingToE(int local) {
        int p = pHead[local];
        if (p < 0) {
            return;
        }
        for (int e = p; e >= 0; e = evNext[e]) {
            countMismatches(local, e); // the P list ends at its tail: evNext[pTail] is -1
        }
        if (eHead[local] < 0) {
            eHead[local] = p;
        } else {
            evNext[eTail[local]] = p;
        }
        eTail[local] = pTail[local];
        eCount[local] += pCount[local];
        pCount[local] = 0;
        pHead[local] = -1;
    }

    /** Events sent during the last ExitState/EnterState wait for the agent's next tick. */
    void carryPending(int r) {
        int local = r - st.base;
        for (int e = pHead[local]; e >= 0; e = evNext[e]) {
            st.out.carried.add(st.ids[r], st.generation(r), evTag[e], evTypes, evBits, e * width);
        }
        pHead[local] = -1;
        pCount[local] = 0;
    }

    /** Drops the events row {@code r} sent itself during ExitState/EnterState (its tree stopped). */
    void dropPending(int r) {
        pHead[r - st.base] = -1;
        pCount[r - st.base] = 0;
    }

    @Override
    public void sendToSelf(int row, int tag, EventPayload payload) {
        int l = row - st.base;
        boolean toE = outboxMode == TO_E;
        append(l, tag, payload, toE);
        if (toE) {
            extra.add(l, ExtraAgents.X_EVENT); // the event is seen by this tick's transitions: the agent is awake
        }
    }

    @Override
    public int generationOf(int agentId) {
        return st.world.isLive(agentId) ? st.world.generationOf(agentId) : -1;
    }

    @Override
    public void sendToAgent(int agentId, int tag, EventPayload payload) {
        st.out.toOthers.add(agentId, st.world.generationOf(agentId), tag, payload);
    }
}
