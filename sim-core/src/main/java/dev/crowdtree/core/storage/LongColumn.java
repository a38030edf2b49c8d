package dev.crowdtree.core.storage;

/**
 * A column of {@code long} values. See {@link Column} for the threading contract of {@link #data()}.
 */
public final class LongColumn extends Column {
    private long[] data;

    LongColumn(String name, int capacity) {
        this(name, new long[capacity]);
    }

    private LongColumn(String name, long[] array) {
        super(name, array);
        this.data = array;
    }

    /** The backing array; valid until the table next grows (only at a sync point). */
    public long[] data() {
        return data;
    }

    public long get(int row) {
        return data[row];
    }

    public void set(int row, long value) {
        data[row] = value;
    }

    @Override
    void gatherRange(Object src, Object dst, int[] order, int from, int to) {
        final long[] s = (long[]) src;
        final long[] d = (long[]) dst;
        for (int i = from; i < to; i++) {
            d[i] = s[order[i]];
        }
    }

    @Override
    void bind(Object array) {
        data = (long[]) array;
    }

    @Override
    public long contentHash(int rows) {
        long h = 0x243F6A8885A308D3L;
        final long[] d = data;
        for (int i = 0; i < rows; i++) {
            h = mixHash(h, d[i]);
        }
        return h;
    }

    @Override
    public long rowBits(int row) {
        return data[row];
    }

    @Override
    public void setRowBits(int row, long bits) {
        data[row] = bits;
    }
}
