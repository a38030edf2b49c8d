package dev.crowdtree.core.schedule;

/**
 * A view of a fixed range of rows handed to a {@link ChunkKernel}: rows {@code begin() .. end()-1}
 * of chunk {@code index()}. Chunk boundaries depend only on the row count and the chunk size, never
 * on the number of workers, which is what makes parallel results reproducible.
 *
 * <p>The executor owns one instance per chunk index and reuses it for every phase; a kernel must
 * not keep a reference after it returns. {@link #worker()} names the worker running the chunk, for
 * per-worker scratch buffers; results must never depend on it.
 */
public final class Chunk {
    private final int index;
    int begin;
    int end;
    int worker;

    Chunk(int index) {
        this.index = index;
    }

    /** Index of this chunk, 0-based, in row order. */
    public int index() {
        return index;
    }

    /** First row of the chunk (inclusive). */
    public int begin() {
        return begin;
    }

    /** Row after the last row of the chunk (exclusive). */
    public int end() {
        return end;
    }

    /** Number of rows in the chunk. */
    public int size() {
        return end - begin;
    }

    /** Index of the worker running this chunk, 0 .. workers-1 (0 is the calling thread). */
    public int worker() {
        return worker;
    }

    @Override
    public String toString() {
        return "chunk " + index + " (rows " + begin + ".." + (end - 1) + ")";
    }
}
