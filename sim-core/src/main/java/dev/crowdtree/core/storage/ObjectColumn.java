package dev.crowdtree.core.storage;

/**
 * A side column of references, for rare per-agent objects that have no primitive encoding.
 * Keep hot data out of it. See {@link Column} for the threading contract.
 *
 * @param <T> element type
 */
public final class ObjectColumn<T> extends Column {
    private Object[] data;
    private Object[] spare;

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
    void gather(int[] order, int n) {
        Object[] src = data;
        Object[] dst = spare == null || spare.length != src.length ? new Object[src.length] : spare;
        for (int i = 0; i < n; i++) {
            dst[i] = src[order[i]];
        }
        java.util.Arrays.fill(src, null); // the spare must not keep references alive
        spare = src;
        data = dst;
        rebind(dst);
    }

    @Override
    void bind(Object array) {
        data = (Object[]) array;
        spare = null;
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
