package dev.crowdtree.core.world;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where each agent id lives in a {@link World}: its table (index + 1, 0 for none), its row and its
 * generation. Two layouts:
 * <ul>
 *   <li><b>dense</b> (a world that spawns its own agents, ids 0..n-1): a record of 12 bytes per id up
 *       to the largest (table, row and generation side by side, so that a lookup by id, such as an
 *       event's, reads one cache line, or two for the one record in eight that straddles a line), at
 *       most {@value #MAX_DENSE_IDS} ids, and an id's generation is kept after it leaves (so a later
 *       spawn of the same id gets the next one);</li>
 *   <li><b>sparse</b> ({@link World.Builder#sparseIds}, a region that places agents from a much larger
 *       id space, {@link World#place}): an open-addressing hash table (linear probing, at most half
 *       full) holding only the agents that live here, 28 to 56 bytes per agent whatever the ids. An
 *       id's generation goes with the agent when it leaves (it lives on in the world it went to).</li>
 * </ul>
 * THREADING: written on the simulation thread at sync points; read by kernels during phases.
 */
final class IdIndex {
    private static final int EMPTY = -1;

    private final boolean sparse;
    // dense: one record of 3 ints per id (table index + 1, row, generation), so that a lookup by id (an
    // event for an agent) reads one line, not one per field; not padded to 4 ints, which would cost 4
    // bytes per agent (4 MB at 1M agents) to keep the one record in eight that straddles two lines on one
    private static final int RECORD = 3;
    private static final int TABLE = 0;
    private static final int ROW = 1;
    private static final int GENERATION = 2;
    /** The most ids a dense index holds ({@value #RECORD} ints each, in one array). */
    static final int MAX_DENSE_IDS = 1 << 29;
    private int[] byId = new int[0];
    private int denseIds;
    // sparse: slot by hash of the id; keys[slot] == EMPTY for a free slot
    private int[] keys;
    private short[] tableOf;
    private int[] rowOf;
    private int[] generationOf;
    private int mask;
    private int shift;
    private int size;

    IdIndex(boolean sparse) {
        this.sparse = sparse;
        if (sparse) {
            allocate(16);
        }
    }

    boolean sparse() {
        return sparse;
    }

    /** Whether an agent with this id lives here. */
    boolean isLive(int id) {
        if (sparse) {
            return slotOf(id) >= 0;
        }
        return id >= 0 && id < denseIds && byId[id * RECORD + TABLE] != 0;
    }

    /** The table index + 1 of live agent {@code id}, 0 when none lives here. */
    int table(int id) {
        if (sparse) {
            int s = slotOf(id);
            return s < 0 ? 0 : tableOf[s];
        }
        return id >= 0 && id < denseIds ? byId[id * RECORD + TABLE] : 0;
    }

    /** The row of live agent {@code id} (check {@link #isLive} first). */
    int row(int id) {
        return sparse ? rowOf[slotOf(id)] : byId[id * RECORD + ROW];
    }

    /** The generation of {@code id} here: dense, kept after it left; sparse, 0 for an id not living here. */
    int generation(int id) {
        if (sparse) {
            int s = slotOf(id);
            return s < 0 ? 0 : generationOf[s];
        }
        return id >= 0 && id < denseIds ? byId[id * RECORD + GENERATION] : 0;
    }

    /**
     * Agent {@code id} now lives in table {@code table} (index + 1); its row follows
     * ({@link #setRow}). Dense: its generation is the one kept for the id; sparse: 0 until
     * {@link #setGeneration}.
     */
    void link(int id, short table) {
        if (sparse) {
            if ((size + 1) * 2 > keys.length) {
                rehash(keys.length * 2);
            }
            int s = probe(id);
            if (keys[s] == EMPTY) {
                keys[s] = id;
                generationOf[s] = 0;
                size++;
            }
            tableOf[s] = table;
            rowOf[s] = -1;
            return;
        }
        ensureDense(id);
        byId[id * RECORD + TABLE] = table;
    }

    /** The generation of {@code id}, which lives here (sparse) or is at most the largest id linked (dense). */
    void setGeneration(int id, int generation) {
        if (sparse) {
            generationOf[slotOf(id)] = generation;
        } else {
            byId[id * RECORD + GENERATION] = generation;
        }
    }

    /** The row of live agent {@code id} changed to {@code row} (an add, a swap-remove, a reorder). */
    void setRow(int id, int row) {
        if (sparse) {
            rowOf[slotOf(id)] = row;
        } else {
            byId[id * RECORD + ROW] = row;
        }
    }

    /** Agent {@code id} no longer lives here (sparse: forgotten, generation included). */
    void unlink(int id) {
        if (sparse) {
            remove(slotOf(id));
            return;
        }
        byId[id * RECORD + TABLE] = 0;
        byId[id * RECORD + ROW] = -1;
    }

    /** Dense only: the next incarnation of {@code id} (a despawn). */
    void nextGeneration(int id) {
        if (!sparse) {
            byId[id * RECORD + GENERATION]++;
        }
    }

    /** Dense only: the generations of ids {@code 0..n-1}. */
    int[] generations(int n) {
        int[] g = new int[n];
        for (int id = 0, end = Math.min(n, denseIds); id < end; id++) {
            g[id] = byId[id * RECORD + GENERATION];
        }
        return g;
    }

    /**
     * Replaces everything: the agents in {@code ids[0..rows)} live in table {@code table} (index + 1),
     * row by index. Dense: {@code gens} holds every id's generation below {@code next}; sparse:
     * {@code gens} holds each row's agent's.
     */
    void restore(int next, int[] gens, short table, int[] ids, int rows) {
        if (sparse) {
            allocate(capacityFor(rows));
            for (int r = 0; r < rows; r++) {
                link(ids[r], table);
                setRow(ids[r], r);
                setGeneration(ids[r], gens[r]);
            }
            return;
        }
        denseIds = Math.max(16, next);
        byId = new int[denseIds * RECORD];
        for (int id = 0; id < denseIds; id++) {
            byId[id * RECORD + ROW] = -1;
            byId[id * RECORD + GENERATION] = id < gens.length ? gens[id] : 0;
        }
        for (int r = 0; r < rows; r++) {
            byId[ids[r] * RECORD + TABLE] = table;
            byId[ids[r] * RECORD + ROW] = r;
        }
    }

    /** Nobody lives here any more (the world closed). */
    void clear() {
        if (sparse) {
            allocate(16);
        } else {
            for (int id = 0; id < denseIds; id++) {
                byId[id * RECORD + TABLE] = 0;
            }
        }
    }

    /** The bytes of the index's arrays. */
    long bytes() {
        return sparse ? keys.length * 14L : byId.length * 4L;
    }

    /** Makes room for ids {@code 0 .. id} at once in a dense index (one allocation, not a doubling per power of two). */
    void ensureDenseUpTo(int id) {
        if (!sparse) {
            ensureDense(id);
        }
    }

    private void ensureDense(int id) {
        if (id >= denseIds) {
            if (id >= MAX_DENSE_IDS) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "agent id %,d is beyond the %,d ids a "
                        + "dense id index holds; a world whose ids come from a larger space takes "
                        + "World.Builder.sparseIds(true)", id, MAX_DENSE_IDS));
            }
            denseIds = (int) Math.min(MAX_DENSE_IDS, Math.max(16, Math.max(id + 1L, denseIds * 2L)));
            byId = Arrays.copyOf(byId, denseIds * RECORD);
        }
    }

    // ---- sparse: linear probing over a power-of-two table at most half full ----

    private static int capacityFor(int entries) {
        return Math.max(16, Integer.highestOneBit(Math.max(1, entries) * 2 - 1) << 1);
    }

    private void allocate(int capacity) {
        keys = new int[capacity];
        Arrays.fill(keys, EMPTY);
        tableOf = new short[capacity];
        rowOf = new int[capacity];
        generationOf = new int[capacity];
        mask = capacity - 1;
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
        size = 0;
    }

    private int home(int id) {
        return (id * 0x9E3779B9) >>> shift; // Fibonacci hashing: the top bits of the product
    }

    /** The slot holding {@code id}, or the free slot where it would go. */
    private int probe(int id) {
        int s = home(id);
        while (keys[s] != EMPTY && keys[s] != id) {
            s = (s + 1) & mask;
        }
        return s;
    }

    /** The slot holding {@code id}, or -1 (always for a negative id: the free slots' key is -1). */
    private int slotOf(int id) {
        if (id < 0) {
            return -1;
        }
        int s = probe(id);
        return keys[s] == id ? s : -1;
    }

    /** Empties slot {@code s} and shifts back the entries of its run that would not be found past the hole. */
    private void remove(int s) {
        int hole = s;
        int i = s;
        while (true) {
            i = (i + 1) & mask;
            int k = keys[i];
            if (k == EMPTY) {
                break;
            }
            int h = home(k);
            // the entry at i may move to the hole when its home is not in the cyclic range (hole, i]
            if (((i - h) & mask) >= ((i - hole) & mask)) {
                keys[hole] = k;
                tableOf[hole] = tableOf[i];
                rowOf[hole] = rowOf[i];
                generationOf[hole] = generationOf[i];
                hole = i;
            }
        }
        keys[hole] = EMPTY;
        size--;
    }

    private void rehash(int capacity) {
        int[] k = keys;
        short[] t = tableOf;
        int[] r = rowOf;
        int[] g = generationOf;
        allocate(capacity);
        for (int i = 0; i < k.length; i++) {
            if (k[i] != EMPTY) {
                int s = probe(k[i]);
                keys[s] = k[i];
                tableOf[s] = t[i];
                rowOf[s] = r[i];
                generationOf[s] = g[i];
                size++;
            }
        }
    }
}
