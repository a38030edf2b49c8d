package dev.crowdtree.statetree.exec;

import java.util.Arrays;

/**
 * The persistent scheduling state of one chunk: which of its agents must be looked at in a tick,
 * kept across ticks so that a tick costs what happens in it. Three structures, all over the chunk's
 * local rows (row - base, at most {@value #MAX_ROWS}):
 *
 * <ul>
 *   <li><b>Always-awake order</b>: the running agents whose active path has a ticking state (a
 *       ticking task or an onTick transition), grouped by their last active state's awake group
 *       (its rank among the always-awake states, {@code CompiledStateTree.stateAwakeGroup}). Groups
 *       are contiguous in {@link #order} ({@code [groupBegin[g], groupBegin[g+1])}), so the agents
 *       whose path contains state s are one slice, and every kernel runs once per slice. The order is
 *       a permutation patched per agent that changes group: moving an agent from group a to group b
 *       swaps it across the |a - b| boundaries between them (O(|a - b|), no sort). Positions past
 *       {@code groupBegin[groups]} are free.</li>
 *   <li><b>Timer wheel</b>: each agent with a wake-up step (its earliest running timer, or a tick
 *       period switch) is linked into the slot {@code step & (slots - 1)} of a single-level wheel if
 *       the step is less than {@code slots} steps ahead, else into an overflow list that is re-examined
 *       every {@code slots / 2} steps. Intrusive doubly linked lists (per-row next/prev) make insert
 *       and remove O(1); a step pops exactly the agents due at it.</li>
 *   <li><b>Sticky list</b>: agents that must be looked at every step they take part in although
 *       they may not be always awake: a completed state (lastTickStatus != RUNNING) or a pending gate.
 *       It may hold agents no longer sticky; the runner drops them when it passes over the list.</li>
 * </ul>
 * Plus a list of rows with requests from outside the tick (a parameter set, a tick period requested).
 *
 * <p>Everything here is derived from the instance columns ({@link InstanceData}); {@link #dirty}
 * chunks are rebuilt from them before their next tick (after rows moved, agents started or stopped),
 * so this state never has to be saved or moved with rows.
 *
 * <p>Allocation: none after construction, except the sticky and request lists growing to their
 * high-water marks. THREADING: a chunk's schedule is touched only by the worker running that chunk in
 * a phase, or by the simulation thread between phases (requests, marking dirty).
 */
final class ChunkSchedule {
    /** Largest chunk the schedule supports (local rows are 16-bit). */
    static final int MAX_ROWS = 1 << 15;
    static final short NONE = -1;
    /** {@link #flags}: in the sticky list / in the request list / linked into the overflow list / wake requested. */
    static final byte STICKY = 1, REQUESTED = 2, OVERFLOW = 4, WAKE = 8;

    final int index;
    final int capacity;
    /** The rows this schedule was built for; a mismatch means the chunk must be rebuilt. */
    int base;
    int rows;
    boolean dirty = true;
    /** Wake every running agent at the next step (setParameter for all agents). */
    boolean wakeAll;
    /** Running agents and, among them, those whose tick period is not 1. */
    int running;
    int periodAgents;

    // ---- always-awake order ----
    final int groups;
    final int[] order;
    final short[] pos;
    final int[] groupBegin;
    private final int[] cursor;

    // ---- timer wheel ----
    private final int slots;
    private final short[] head;
    private short overflowHead = NONE;
    private final short[] next;
    private final short[] prev;
    /** Wake-up step per local row, 0 when none. */
    final int[] wake;
    /** The last step the wheel advanced to. */
    int now;

    final byte[] flags;
    short[] sticky = new short[16];
    int stickyCount;
    short[] requests = new short[16];
    int requestCount;

    ChunkSchedule(int index, int capacity, int groups) {
        this.index = index;
        this.capacity = capacity;
        this.groups = groups;
        order = new int[capacity];
        pos = new short[capacity];
        groupBegin = new int[groups + 2];
        cursor = new int[groups + 1];
        int s = Integer.highestOneBit(Math.max(64, Math.min(4096, capacity)) * 2 - 1);
        slots = s;
        head = new short[s];
        next = new short[capacity];
        prev = new short[capacity];
        wake = new int[capacity];
        flags = new byte[capacity];
    }

    /** Empties every structure for rows {@code [base, base + rows)}; the wheel stands at {@code step}. */
    void clear(int chunkBase, int chunkRows, int step) {
        base = chunkBase;
        rows = chunkRows;
        Arrays.fill(pos, 0, chunkRows, NONE);
        Arrays.fill(wake, 0, chunkRows, 0);
        Arrays.fill(flags, 0, chunkRows, (byte) 0);
        Arrays.fill(groupBegin, 0);
        groupBegin[groups + 1] = capacity;
        Arrays.fill(head, NONE);
        overflowHead = NONE;
        now = step;
        stickyCount = 0;
        requestCount = 0;
        running = 0;
        periodAgents = 0;
        wakeAll = false;
    }

    // =============================================================================================
    // Always-awake order
    // =============================================================================================

    /** Number of agents in the order. */
    int listed() {
        return groupBegin[groups];
    }

    /**
     * Bulk build: {@code groupOf[local]} is each local row's group or -1; places the rows of every
     * group in ascending row order (a counting sort; used by the rebuild only).
     */
    void buildOrder(int[] groupOf) {
        final int[] gb = groupBegin;
        Arrays.fill(gb, 0);
        for (int l = 0; l < rows; l++) {
            if (groupOf[l] >= 0) {
                gb[groupOf[l] + 1]++;
            }
        }
        for (int g = 1; g <= groups; g++) {
            gb[g] += gb[g - 1];
        }
        gb[groups + 1] = capacity;
        System.arraycopy(gb, 0, cursor, 0, groups);
        for (int l = 0; l < rows; l++) {
            int g = groupOf[l];
            if (g >= 0) {
                int at = cursor[g]++;
                order[at] = base + l;
                pos[l] = (short) at;
            }
        }
    }

    /** Adds local row {@code l} (not listed) to group {@code g}. */
    void insert(int l, int g) {
        int at = groupBegin[groups];
        order[at] = base + l;
        pos[l] = (short) at;
        moveDown(l, groups, g);
    }

    /** Removes local row {@code l} from group {@code g}. */
    void remove(int l, int g) {
        moveUp(l, g, groups);
        pos[l] = NONE;
    }

    /** Moves listed local row {@code l} from group {@code from} to group {@code to}. */
    void move(int l, int from, int to) {
        if (from < to) {
            moveUp(l, from, to);
        } else if (from > to) {
            moveDown(l, from, to);
        }
    }

    /** Carries {@code l} across the boundaries above it: it ends as the first element of group {@code to}. */
    private void moveUp(int l, int from, int to) {
        int i = pos[l];
        for (int g = from; g < to; g++) {
            int lastOfG = groupBegin[g + 1] - 1;
            swap(i, lastOfG);
            i = lastOfG;
            groupBegin[g + 1]--;
        }
    }

    /** Carries {@code l} across the boundaries below it: it ends as the last element of group {@code to}. */
    private void moveDown(int l, int from, int to) {
        int i = pos[l];
        for (int g = from; g > to; g--) {
            int firstOfG = groupBegin[g];
            swap(i, firstOfG);
            i = firstOfG;
            groupBegin[g]++;
        }
    }

    private void swap(int i, int j) {
        if (i == j) {
            return;
        }
        int a = order[i];
        int b = order[j];
        order[i] = b;
        order[j] = a;
        pos[b - base] = (short) i;
        pos[a - base] = (short) j;
    }

    // =============================================================================================
    // Timer wheel
    // =============================================================================================

    /** Sets local row {@code l}'s wake-up step ({@code 0} or {@link InstanceData#NEVER}: none). */
    void schedule(int l, int step) {
        if (wake[l] == step) {
            return;
        }
        unschedule(l);
        if (step == 0 || step == InstanceData.NEVER) {
            return;
        }
        wake[l] = step;
        if ((long) step - now < slots) {
            link(l, step & (slots - 1));
        } else {
            flags[l] |= OVERFLOW;
            prev[l] = NONE;
            next[l] = overflowHead;
            if (overflowHead != NONE) {
                prev[overflowHead] = (short) l;
            }
            overflowHead = (short) l;
        }
    }

    void unschedule(int l) {
        if (wake[l] == 0) {
            return;
        }
        short p = prev[l];
        short n = next[l];
        if (p != NONE) {
            next[p] = n;
        } else if ((flags[l] & OVERFLOW) != 0) {
            overflowHead = n;
        } else {
            head[wake[l] & (slots - 1)] = n;
        }
        if (n != NONE) {
            prev[n] = p;
        }
        flags[l] &= ~OVERFLOW;
        wake[l] = 0;
    }

    private void link(int l, int slot) {
        short h = head[slot];
        prev[l] = NONE;
        next[l] = h;
        if (h != NONE) {
            prev[h] = (short) l;
        }
        head[slot] = (short) l;
    }

    /**
     * Advances the wheel to {@code step} (the next one after {@link #now}) and appends the local rows
     * due at it to {@code out} from {@code n}; their wake-up is cleared. Returns the new count.
     */
    int advance(int step, int[] out, int n) {
        now = step;
        if ((step & (slots / 2 - 1)) == 0 && overflowHead != NONE) {
            rescanOverflow();
        }
        int slot = step & (slots - 1);
        short l = head[slot];
        while (l != NONE) {
            short nx = next[l];
            out[n++] = l;
            wake[l] = 0;
            l = nx;
        }
        head[slot] = NONE;
        return n;
    }

    /** Moves the overflow entries that are now less than a revolution ahead into the wheel. */
    private void rescanOverflow() {
        short l = overflowHead;
        while (l != NONE) {
            short nx = next[l];
            int w = wake[l];
            if ((long) w - now < slots) {
                unschedule(l);
                schedule(l, w);
            }
            l = nx;
        }
    }

    // =============================================================================================
    // Sticky and request lists
    // =============================================================================================

    /** Adds local row {@code l} to the sticky list unless it is there. */
    void addSticky(int l) {
        if ((flags[l] & STICKY) != 0) {
            return;
        }
        flags[l] |= STICKY;
        if (stickyCount == sticky.length) {
            sticky = Arrays.copyOf(sticky, stickyCount * 2);
        }
        sticky[stickyCount++] = (short) l;
    }

    /** Records a request for local row {@code l} (simulation thread, or the chunk's own kernel). */
    void addRequest(int l) {
        if ((flags[l] & REQUESTED) != 0) {
            return;
        }
        flags[l] |= REQUESTED;
        if (requestCount == requests.length) {
            requests = Arrays.copyOf(requests, requestCount * 2);
        }
        requests[requestCount++] = (short) l;
    }
}
