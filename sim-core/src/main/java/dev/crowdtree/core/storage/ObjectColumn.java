package dev.crowdtree.core.storage;

/**
 * A side column of references, for rare per-agent objects that have no primitive encoding.
 * Keep hot data out of it. See {@link Column} for the threading contract.
 *
 * @param <T> element type
 */
public final class ObjectColumn<T> extends Column {
    private Object[] data;

    ObjectColumn(String name, int capacity) {
        this(name, new Object[capacity]);
    }

    private ObjectColumn(String name, Object[] array) {
        super(name, array);
        this.data = array;
    }

    @SuppressWarnings("unchecked")
    public T get(int row) {
        return (T) data[row];
    }

    public void set(int row, T value) {
        data[row] = value;
    }

    @Override
    void gatherRange(Object src, Object dst, int[] order, int from, int to) {
        final Object[] s = (Object[]) src;
        final Object[] d = (Object[]) dst;
        for (int i = from; i < to; i++) {
            d[i] = s[order[i]];
        }
    }

    @Override
    void bind(Object array) {
        data = (Object[]) array;
    }

    /** References have no stable bits across runs, so they do not contribute to the hash. */
    @Override
    public long contentHash(int rows) {
        return 0L;
    }

    /** References have no stable bits across runs: 0. */
    @Override
    public long rowBits(int row) {
        return 0L;
    }

    /** Object columns carry no bits: nothing to set (a moved agent's object value stays behind). */
    @Override
    public void setRowBits(int row, long bits) {
        throw new UnsupportedOperationException("object column '" + name() + "' has no bits to set");
    }
}
