package dev.crowdtree.core.storage;

/**
 * A column of {@code short} values. See {@link Column} for the threading contract of {@link #data()}.
 */
public final class ShortColumn extends Column {
    private short[] data;

    ShortColumn(String name, int capacity) {
        this(name, new short[capacity]);
    }

    private ShortColumn(String name, short[] array) {
        super(name, array);
        this.data = array;
    }

    /** The backing array; valid until the table next grows (only at a sync point). */
    public short[] data() {
        return data;
    }

    public short get(int row) {
        return data[row];
    }

    public void set(int row, short value) {
        data[row] = value;
    }

    @Override
    void gatherRange(Object src, Object dst, int[] order, int from, int to) {
        final short[] s = (short[]) src;
        final short[] d = (short[]) dst;
        for (int i = from; i < to; i++) {
            d[i] = s[order[i]];
        }
    }

    @Override
    void bind(Object array) {
        data = (short[]) array;
    }

    @Override
    public long contentHash(int rows) {
        long h = 0x243F6A8885A308D3L;
        final short[] d = data;
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
        data[row] = (short) bits;
    }
}
