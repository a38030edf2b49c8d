package dev.crowdtree.core.storage;

/**
 * A column of {@code int} values. See {@link Column} for the threading contract of {@link #data()}.
 */
public final class IntColumn extends Column {
    private int[] data;

    IntColumn(String name, int capacity) {
        this(name, new int[capacity]);
    }

    private IntColumn(String name, int[] array) {
        super(name, array);
        this.data = array;
    }

    /** The backing array; valid until the table next grows (only at a sync point). */
    public int[] data() {
        return data;
    }

    public int get(int row) {
        return data[row];
    }

    public void set(int row, int value) {
        data[row] = value;
    }

    @Override
    void gatherRange(Object src, Object dst, int[] order, int from, int to) {
        final int[] s = (int[]) src;
        final int[] d = (int[]) dst;
        for (int i = from; i < to; i++) {
            d[i] = s[order[i]];
        }
    }

    @Override
    void bind(Object array) {
        data = (int[]) array;
    }

    @Override
    public long contentHash(int rows) {
        long h = 0x243F6A8885A308D3L;
        final int[] d = data;
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
        data[row] = (int) bits;
    }
}
