package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.schedule.ChunkExecutor;

import java.util.Arrays;

/**
 * The persistent scheduling state of one chunk: which of its agents must be looked at in a tick,
 * kept across ticks so that a tick costs what happens in it. Three structures, all over the chunk's
 * local rows (row - base, at most {@value #MAX_ROWS}):
 *
 * <ul>
 *   <li><b>Always-awake order</b>: the running agents whose active path has a ticking state (a
 *       ticking task or an onTick transition), grouped by their last active state's awake group
 *       ({@code CompiledStateTree.stateAwakeGroup}: one per ticking state; a state awake only through
 *       a ticking ancestor is in its parent's group). Groups are contiguous in {@link #order}
 *       ({@code [groupBegin[g], groupBegin[g+1])}), so the agents whose path contains a ticking
 *       state s are one slice, and every kernel runs once per slice. The order is
 *       a permutation patched per agent that changes group: moving an agent from group a to group b
 *       swaps it across the |a - b| boundaries between them (O(|a - b|), no sort). Positions past
 *       {@code groupBegin[groups]} are free. A rebuild leaves each group in ascending row order; once
 *       half as many rows as are listed have moved, the runner sorts the groups again
 *       ({@link #sortOrder}), so that the kernels reading columns through the order read forward.</li>
 *   <li><b>Timer wheel</b>: each agent with a wake-up step (its earliest running timer, or a tick
 *       period switch) has one entry in a hierarchical wheel: 256 slots of one step for the next
 *       256 steps, 256 slots of 256 steps beyond, and an overflow list past that, filed again every
 *       32,768 steps. Slots are chains of 32-row blocks (64 bytes) from a fixed per-chunk pool, so a step reads
 *       its due agents sequentially (no pointer chase per agent), and moving or removing an entry is
 *       O(1). A level-1 slot is spread over level 0 once, when its 256 steps begin.</li>
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
 * <p>Allocation: none after construction but the sticky list's growth (the wheel's pool has a hard
 * bound; the sticky list holds each row at most once and doubles, up to the chunk's size, when it is
 * full: usually a few agents are sticky, and a list sized for the chunk took 2 bytes per agent).
 * THREADING: a chunk's schedule is touched only by the worker running that chunk in a phase, or by
 * the simulation thread between phases (requests, marking dirty).
 */
final class ChunkSchedule {
    /** Largest chunk the schedule supports (local rows are 16-bit). */
    static final int MAX_ROWS = 1 << 15;
    static final short NONE = -1;
    /** Flags of a row ({@link #flagsOf}): in the sticky list / in the request list / wake requested / in the order. */
    static final int STICKY = 1, REQUESTED = 2, WAKE = 8, LISTED = 16;

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

    // ---- timer wheel: two levels of 256 slots (1 step, 256 steps) plus an overflow list ----
    private static final int L0 = 256;
    private static final int L1 = 256;
    private static final int SPAN1 = L0 * L1;
    /** List ids: level-0 slots, then level-1 slots, then the overflow list. */
    private static final int OVERFLOW_LIST = L0 + L1;
    private static final int LISTS = OVERFLOW_LIST + 1;
    private static final int BLOCK = 32;
    /**
     * Every list is a chain of blocks of {@value #BLOCK} local rows from one pool per chunk. A row has
     * at most one live entry (its index is in {@link #meta}); removing it leaves a hole ({@link #HOLE}), a single
     * store with nothing to look up, so rescheduling a scattered agent costs no extra cache misses.
     * At most {@code rows} entries live, in at most {@code ceil(rows / BLOCK)} full blocks plus one
     * partly filled block per non-empty list (and one more for a list being refiled); the pool has a
     * quarter more than that, and when holes exhaust it, {@link #compact} squeezes them out, which
     * frees at least a fifth of it. So the pool never grows and compaction costs O(1) per entry
     * filed, amortized.
     */
    private static final short HOLE = -1;
    private final short[] pool;
    private final int[] blockNext;
    private int freeBlock;
    /** Per list, interleaved so that one cache line holds all three: first block, last block, entries in the last. */
    private final int[] listMeta = new int[3 * LISTS];

    /**
     * Per local row, everything the wheel and the lists keep about it in one word, so that visiting a
     * scattered agent costs one cache line: bits 0-31 its wake-up step (0: none), bits 32-55 its live
     * entry's pool index + 1 (0: none), bits 56-63 its flags.
     */
    final long[] meta;
    /** The last step the wheel advanced to. */
    int now;

    /** At most one entry per row (the STICKY flag): it grows to at most the chunk's capacity ({@link #addSticky}). */
    short[] sticky;
    int stickyCount;

    /**
     * {@code schedules}, grown to {@code chunks} entries: new ones of {@code capacity} rows, dirty,
     * made on the executor's workers (a schedule is a few hundred kilobytes to zero: at 10M agents, the
     * first tick's preparation was mostly this).
     */
    static ChunkSchedule[] ensure(ChunkSchedule[] schedules, int chunks, int capacity, int groups, ChunkExecutor executor) {
        if (schedules.length >= chunks) {
            return schedules;
        }
        final ChunkSchedule[] next = Arrays.copyOf(schedules, chunks);
        final int from = schedules.length;
        executor.run(c -> {
            for (int i = from + c.begin(), end = from + c.end(); i < end; i++) {
                next[i] = new ChunkSchedule(i, capacity, groups);
            }
        }, chunks - from, 8);
        return next;
    }

    ChunkSchedule(int index, int capacity, int groups) {
        this.index = index;
        this.capacity = capacity;
        this.groups = groups;
        order = new int[capacity];
        pos = new short[capacity];
        groupBegin = new int[groups + 2];
        cursor = new int[groups + 1];
        meta = new long[capacity];
        sticky = new short[Math.min(capacity, STICKY_START)];
        sortBits = new long[(capacity + 63) >>> 6];
        int bound = (capacity + BLOCK - 1) / BLOCK + Math.min(capacity, LISTS + 1);
        int blocks = bound + bound / 4 + 1;
        pool = new short[blocks * BLOCK];
        blockNext = new int[blocks];
    }

    /** Empties every structure for rows {@code [base, base + rows)}; the wheel stands at {@code step}. */
    void clear(int chunkBase, int chunkRows, int step) {
        base = chunkBase;
        rows = chunkRows;
        Arrays.fill(pos, 0, chunkRows, NONE);
        Arrays.fill(meta, 0, chunkRows, 0L);
        Arrays.fill(groupBegin, 0);
        groupBegin[groups + 1] = capacity;
        for (int list = 0; list < LISTS; list++) {
            listMeta[3 * list] = -1;
            listMeta[3 * list + 1] = -1;
            listMeta[3 * list + 2] = 0;
        }
        for (int b = 0; b < blockNext.length; b++) {
            blockNext[b] = b + 1 < blockNext.length ? b + 1 : -1;
        }
        freeBlock = 0;
        now = step;
        stickyCount = 0;
        running = 0;
        periodAgents = 0;
        wakeAll = false;
    }

    // ---- the packed per-row word ----

    int wakeOf(int l) {
        return (int) meta[l];
    }

    private void setWake(int l, int step) {
        meta[l] = (meta[l] & ~0xFFFFFFFFL) | (step & 0xFFFFFFFFL);
    }

    /** Pool index of the row's live wheel entry, or -1. */
    private int entryOf(int l) {
        return (int) ((meta[l] >>> 32) & 0xFFFFFF) - 1;
    }

    private void setEntry(int l, int at) {
        meta[l] = (meta[l] & ~(0xFFFFFFL << 32)) | ((long) (at + 1) << 32);
    }

    int flagsOf(int l) {
        return (int) (meta[l] >>> 56);
    }

    void addFlags(int l, int f) {
        meta[l] |= (long) f << 56;
    }

    void clearFlags(int l, int f) {
        meta[l] &= ~((long) f << 56);
    }

    /** Whether local row {@code l} is in the always-awake order. */
    boolean isListed(int l) {
        return (flagsOf(l) & LISTED) != 0;
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
        scattered = 0;
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
                addFlags(l, LISTED);
            }
        }
    }

    /**
     * Rows added, removed or moved between groups since the order was last built: each leaves a row
     * out of ascending order ({@link #sortOrder}).
     */
    int scattered;

    /** One bit per local row, for {@link #sortOrder}. */
    private final long[] sortBits;

    /**
     * Sorts every group's rows ascending again, as {@link #buildOrder} leaves them: moves between
     * groups scatter them over time, and the kernels that read columns through the order then
     * gather at random, where in row order they read the columns forward. A bit set per group:
     * O(listed + groups * rows / 64), on this schedule's arrays only.
     */
    void sortOrder() {
        final long[] bits = sortBits;
        final int words = (rows + 63) >>> 6;
        final int b = base;
        for (int g = 0; g < groups; g++) {
            int from = groupBegin[g];
            int to = groupBegin[g + 1];
            if (to - from < 2) {
                continue;
            }
            for (int i = from; i < to; i++) {
                int l = order[i] - b;
                bits[l >>> 6] |= 1L << l;
            }
            int i = from;
            for (int w = 0; w < words; w++) {
                long x = bits[w];
                bits[w] = 0;
                while (x != 0) {
                    int l = (w << 6) + Long.numberOfTrailingZeros(x);
                    x &= x - 1;
                    order[i] = b + l;
                    pos[l] = (short) i;
                    i++;
                }
            }
        }
        scattered = 0;
    }

    /** Adds local row {@code l} (not listed) to group {@code g}. */
    void insert(int l, int g) {
        scattered++;
        addFlags(l, LISTED);
        int at = groupBegin[groups];
        order[at] = base + l;
        pos[l] = (short) at;
        moveDown(l, groups, g);
    }

    /** Removes local row {@code l} from group {@code g}. */
    void remove(int l, int g) {
        scattered++;
        moveUp(l, g, groups);
        pos[l] = NONE;
        clearFlags(l, LISTED);
    }

    /** Moves listed local row {@code l} from group {@code from} to group {@code to}. */
    void move(int l, int from, int to) {
        scattered += from != to ? 1 : 0;
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
        if (step == InstanceData.NEVER) {
            step = 0;
        }
        if (wakeOf(l) == step) {
            return;
        }
        delete(l);
        setWake(l, step);
        if (step != 0) {
            file(l, step);
        }
    }

    void unschedule(int l) {
        delete(l);
        setWake(l, 0);
    }

    /** Puts the entry of {@code l}, due at {@code step} (> {@link #now}), in the level that covers it. */
    private void file(int l, int step) {
        long ahead = (long) step - now;
        if (ahead < L0) {
            append(step & (L0 - 1), l);
        } else if (ahead < SPAN1 - L0) {
            append(L0 + ((step >>> 8) & (L1 - 1)), l);
        } else {
            append(OVERFLOW_LIST, l);
        }
    }

    private void append(int list, int l) {
        int b = listMeta[3 * (list) + 1];
        int fill = listMeta[3 * (list) + 2];
        if (b < 0 || fill == BLOCK) {
            if (freeBlock < 0) {
                compact();
                b = listMeta[3 * (list) + 1];
                fill = listMeta[3 * (list) + 2];
            }
            if (b < 0 || fill == BLOCK) {
                int nb = freeBlock;
                freeBlock = blockNext[nb];
                blockNext[nb] = -1;
                if (b < 0) {
                    listMeta[3 * (list)] = nb;
                } else {
                    blockNext[b] = nb;
                }
                listMeta[3 * (list) + 1] = nb;
                b = nb;
                fill = 0;
            }
        }
        int at = b * BLOCK + fill;
        pool[at] = (short) l;
        setEntry(l, at);
        listMeta[3 * (list) + 2] = fill + 1;
    }

    /** Removes {@code l}'s live entry, if any, leaving a hole. */
    private void delete(int l) {
        int at = entryOf(l);
        if (at >= 0) {
            pool[at] = HOLE;
            setEntry(l, -1);
        }
    }

    /** How many times {@link #compact} ran (for tests). */
    int compactions;

    /** Squeezes the holes out of every list, in place, and frees the blocks left over. */
    private void compact() {
        compactions++;
        for (int list = 0; list < LISTS; list++) {
            int b = listMeta[3 * (list)];
            if (b < 0) {
                continue;
            }
            int tail = listMeta[3 * (list) + 1];
            int fill = listMeta[3 * (list) + 2];
            int wb = b;   // block written to
            int wf = 0;   // entries in it
            while (b >= 0) {
                int size = b == tail ? fill : BLOCK;
                int nb = blockNext[b];
                for (int i = b * BLOCK, e = i + size; i < e; i++) {
                    short l = pool[i];
                    if (l != HOLE) {
                        if (wf == BLOCK) {
                            wb = blockNext[wb];
                            wf = 0;
                        }
                        int at = wb * BLOCK + wf++;
                        pool[at] = l;
                        setEntry(l, at);
                    }
                }
                b = nb;
            }
            // the write position never passes the read position, so wb is on the chain: free after it
            int rest = blockNext[wb];
            blockNext[wb] = -1;
            while (rest >= 0) {
                int nb = blockNext[rest];
                blockNext[rest] = freeBlock;
                freeBlock = rest;
                rest = nb;
            }
            if (wf == 0) {
                // the list emptied entirely (only its first block is left): free it too
                blockNext[wb] = freeBlock;
                freeBlock = wb;
                listMeta[3 * (list)] = -1;
                listMeta[3 * (list) + 1] = -1;
                listMeta[3 * (list) + 2] = 0;
            } else {
                listMeta[3 * (list) + 1] = wb;
                listMeta[3 * (list) + 2] = wf;
            }
        }
    }

    /** Detaches list {@code list}: returns its first block (-1 if empty); {@link #detachedTail}/{@link #detachedFill} say where it ends. */
    private int detach(int list) {
        int b = listMeta[3 * (list)];
        detachedTail = listMeta[3 * (list) + 1];
        detachedFill = listMeta[3 * (list) + 2];
        listMeta[3 * (list)] = -1;
        listMeta[3 * (list) + 1] = -1;
        listMeta[3 * (list) + 2] = 0;
        return b;
    }

    private int detachedTail;
    private int detachedFill;

    /**
     * Advances the wheel to {@code step} (the next one after {@link #now}) and appends the local rows
     * due at it to {@code out} from {@code n} ({@code out} has room for one row more than the chunk's:
     * a hole is written past the last row and not counted); their wake-up is cleared. Returns the new count.
     * Every 256 steps the level-1 slot whose steps begin is spread over level 0, and every 32,768
     * steps the overflow list is filed again (often enough that an entry reaches level 1 before its
     * slot comes due).
     */
    int advance(int step, int[] out, int n) {
        now = step;
        if ((step & (L0 - 1)) == 0) {
            if ((step & (SPAN1 / 2 - 1)) == 0 && listMeta[3 * (OVERFLOW_LIST)] >= 0) {
                refile(OVERFLOW_LIST);
            }
            int slot1 = L0 + ((step >>> 8) & (L1 - 1));
            if (listMeta[3 * (slot1)] >= 0) {
                refile(slot1);
            }
        }
        int b = detach(step & (L0 - 1));
        int tail = detachedTail;
        int fill = detachedFill;
        final short[] p = pool;
        final int first = n;
        while (b >= 0) {
            int size = b == tail ? fill : BLOCK;
            for (int i = b * BLOCK, e = i + size; i < e; i++) {
                int l = p[i];
                out[n] = l;
                n += l != HOLE ? 1 : 0;
            }
            int nb = blockNext[b];
            blockNext[b] = freeBlock;
            freeBlock = b;
            b = nb;
        }
        // a loop of its own, without a branch: the rows' words are scattered, and their misses overlap
        final long[] m = meta;
        for (int i = first; i < n; i++) {
            m[out[i]] &= ~0xFFFFFFFFFFFFFFL; // no wake-up, no entry; flags kept
        }
        return n;
    }

    /** Files the entries of {@code list} again, each in the level that now covers its step. */
    private void refile(int list) {
        int b = detach(list);
        int tail = detachedTail;
        int fill = detachedFill;
        while (b >= 0) {
            int size = b == tail ? fill : BLOCK;
            int nb = blockNext[b];
            // entries read before the block is freed: filing may take it next
            int kept = 0;
            for (int i = b * BLOCK, e = i + size; i < e; i++) {
                int l = pool[i];
                if (l != HOLE) {
                    setEntry(l, -1);
                    blockSpare[kept++] = l;
                }
            }
            blockNext[b] = freeBlock;
            freeBlock = b;
            for (int i = 0; i < kept; i++) {
                int l = blockSpare[i];
                file(l, wakeOf(l));
            }
            b = nb;
        }
    }

    private final int[] blockSpare = new int[BLOCK];

    // =============================================================================================
    // Sticky and request lists
    // =============================================================================================

    /** The sticky list's first size. */
    private static final int STICKY_START = 64;

    /** Adds local row {@code l} to the sticky list unless it is there (doubling the list when it is full). */
    void addSticky(int l) {
        if ((flagsOf(l) & STICKY) != 0) {
            return;
        }
        addFlags(l, STICKY);
        if (stickyCount == sticky.length) {
            sticky = Arrays.copyOf(sticky, Math.min(capacity, 2 * sticky.length)); // never full at capacity: one entry per row
        }
        sticky[stickyCount++] = (short) l;
    }
}
