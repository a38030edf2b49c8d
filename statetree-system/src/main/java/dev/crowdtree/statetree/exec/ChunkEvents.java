package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.EventOutbox;

import java.util.Arrays;

/**
 * The events of the chunk being run (docs/SEMANTICS.md section 8): per local row, the list E of
 * events the agent sees in this tick's transitions and the list P of events it sent itself during
 * ExitState/EnterState (seen in the next round, or carried to its next tick), both over one pooled
 * linked list that is emptied at every chunk. Also the {@link EventOutbox} of the worker's
 * {@code NodeContext}: events to self go to E or P by {@link #outboxMode}, events to other agents to
 * the chunk's output.
 *
 * <p>Allocation: only when the pool grows past its high-water mark, or in {@link #ensureCapacity}.
 * THREADING: confined to its worker.
 */
final class ChunkEvents implements EventOutbox {
    /** Outbox modes: events to self go to E (this tick) or to P (next round / next tick). */
    static final int TO_E = 0, TO_P = 1;
    private static final int EV_INITIAL = 1024;

    private final ChunkState st;
    private final CompiledStateTree t;
    int outboxMode;

    // per-row event lists (by local row) over a pooled linked list; heads are -1 outside X
    int[] eHead = new int[0];
    private int[] eTail = new int[0];
    private int[] pHead = new int[0];
    private int[] pTail = new int[0];
    // the chunk's events this tick, a linked list per row; room for 1,024 before the first growth
    private int[] evTag = new int[EV_INITIAL];
    private float[] evPayload = new float[EV_INITIAL];
    private boolean[] evHas = new boolean[EV_INITIAL];
    private boolean[] evDead = new boolean[EV_INITIAL];
    private int[] evNext = new int[EV_INITIAL];
    private int evSize;

    ChunkEvents(ChunkState state) {
        this.t = state.t;
        this.st = state;
    }

    /** Sizes the per-row lists for chunks of {@code n} rows (with {@link ChunkState#ensureCapacity}). */
    void ensureCapacity(int n) {
        eHead = new int[n];
        eTail = new int[n];
        pHead = new int[n];
        pTail = new int[n];
        Arrays.fill(eHead, -1);
        Arrays.fill(pHead, -1);
    }

    /** Empties the pool for a new chunk. */
    void clear() {
        evSize = 0;
    }

    void append(int local, int tag, float payload, boolean has, boolean toE) {
        if (evSize == evTag.length) {
            int m = evSize * 2;
            evTag = Arrays.copyOf(evTag, m);
            evPayload = Arrays.copyOf(evPayload, m);
            evHas = Arrays.copyOf(evHas, m);
            evDead = Arrays.copyOf(evDead, m);
            evNext = Arrays.copyOf(evNext, m);
        }
        int e = evSize++;
        evTag[e] = tag;
        evPayload[e] = payload;
        evHas[e] = has;
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
    }

    boolean hasEvent(int local, int tag) {
        for (int e = eHead[local]; e >= 0; e = evNext[e]) {
            if (!evDead[e] && t.tagMatches(tag, evTag[e])) {
                return true;
            }
        }
        return false;
    }

    void consumeEvent(int local, int tag) {
        for (int e = eHead[local]; e >= 0; e = evNext[e]) {
            if (!evDead[e] && t.tagMatches(tag, evTag[e])) {
                evDead[e] = true;
                return;
            }
        }
    }

    void movePendingToE(int local) {
        int p = pHead[local];
        if (p < 0) {
            return;
        }
        if (eHead[local] < 0) {
            eHead[local] = p;
        } else {
            evNext[eTail[local]] = p;
        }
        eTail[local] = pTail[local];
        pHead[local] = -1;
    }

    /** Events sent during the last ExitState/EnterState wait for the agent's next tick. */
    void carryPending(int r) {
        int local = r - st.base;
        for (int e = pHead[local]; e >= 0; e = evNext[e]) {
            st.out.carried.add(st.ids[r], evTag[e], evPayload[e], evHas[e]);
        }
        pHead[local] = -1;
    }

    /** Drops the events row {@code r} sent itself during ExitState/EnterState (its tree stopped). */
    void dropPending(int r) {
        pHead[r - st.base] = -1;
    }

    @Override
    public void sendToSelf(int row, int tag, float payload, boolean hasPayload) {
        int l = row - st.base;
        boolean toE = outboxMode == TO_E;
        append(l, tag, payload, hasPayload, toE);
        if (toE) {
            st.addX(l, ChunkState.X_EVENT); // the event is seen by this tick's transitions: the agent is awake
        }
    }

    @Override
    public void sendToAgent(int agentId, int tag, float payload, boolean hasPayload) {
        st.out.toOthers.add(agentId, tag, payload, hasPayload);
    }
}
