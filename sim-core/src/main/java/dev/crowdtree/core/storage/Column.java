package dev.crowdtree.core.storage;

import java.lang.reflect.Array;

/**
 * One named column of a {@link SoaTable}: a primitive array indexed by row.
 *
 * <p>The bookkeeping operations (grow, move a row, clear a row) work on the array as an
 * {@code Object} through {@link System#arraycopy}, so they exist once for every element type;
 * subclasses only add typed access. Hot loops call the subclass's {@code data()} once per chunk and
 * index the returned array directly.
 *
 * <p>THREADING: the array reference changes only when the table grows, which happens on the
 * simulation thread at a sync point. Kernels running in a parallel phase may read and write the
 * elements of their own rows; they must re-read {@code data()} at the start of every phase rather
 * than cache it across sync points.
 */
public abstract class Column {
    private final String name;
    private final Object zero;
    private Object store;

    Column(String name, Object initialArray) {
        this.name = name;
        this.store = initialArray;
        this.zero = Array.newInstance(initialArray.getClass().getComponentType(), 1);
    }

    /** The column's name, unique within its table. */
    public final String name() {
        return name;
    }

    /** Number of rows the current array can hold. */
    public final int capacity() {
        return Array.getLength(store);
    }

    /** The element type's name as used in diagnostics ({@code float}, {@code int}, ...). */
    public final String typeName() {
        return store.getClass().getComponentType().getSimpleName();
    }

    /**
     * The current primitive array ({@code float[]}, {@code int[]}, ...), for code that binds columns
     * by name without knowing their type at compile time. Same validity rules as {@code data()}.
     */
    public final Object array() {
        return store;
    }

    final void resize(int capacity) {
        Object next = Array.newInstance(store.getClass().getComponentType(), capacity);
        System.arraycopy(store, 0, next, 0, Math.min(capacity, Array.getLength(store)));
        store = next;
        bind(next);
    }

    final void move(int from, int to) {
        System.arraycopy(store, from, store, to, 1);
    }

    final void clear(int row) {
        System.arraycopy(zero, 0, store, row, 1);
    }

    /** Called after a resize so the subclass can refresh its typed array field. */
    abstract void bind(Object array);

    /**
     * Part of a reorder: {@code dst[i] = src[order[i]]} for {@code i} in {@code [from, to)}, where
     * {@code src} and {@code dst} are arrays of this column's element type. Distinct ranges may run on
     * different threads at once.
     */
    abstract void gatherRange(Object src, Object dst, int[] order, int from, int to);

    /** Makes {@code next} (same type and length) this column's array and returns the one it replaces. */
    final Object swapArray(Object next) {
        Object old = store;
        store = next;
        bind(next);
        return old;
    }

    /**
     * A hash of the first {@code rows} values that depends only on their bits, used to compare
     * whole worlds across runs and worker counts. Object columns contribute nothing.
     */
    public abstract long contentHash(int rows);

    /** The bits of row {@code row}'s value, for hashes by agent ({@link SoaTable#contentHashByAgent}). */
    public abstract long rowBits(int row);

    /**
     * Sets row {@code row}'s value from bits {@link #rowBits} gave, so that an agent's row can be moved
     * between tables (regions) value by value, bit for bit.
     *
     * @throws UnsupportedOperationException for an object column
     */
    public abstract void setRowBits(int row, long bits);

    static long mixHash(long h, long bits) {
        h ^= bits;
        h *= 0x9E3779B97F4A7C15L;
        return Long.rotateLeft(h, 29);
    }
}
