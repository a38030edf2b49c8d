package dev.crowdtree.core.storage;

/**
 * A column of {@code byte} values. See {@link Column} for the threading contract of {@link #data()}.
 */
public final class ByteColumn extends Column {
    private byte[] data;

    ByteColumn(String name, int capacity) {
        this(name, new byte[capacity]);
    }

    private ByteColumn(String name, byte[] array) {
        super(name, array);
        this.data = array;
    }

    /** The backing array; valid until the table next grows (only at a sync point). */
    public byte[] data() {
        return data;
    }

    public byte get(int row) {
        return data[row];
    }

    public void set(int row, byte value) {
        data[row] = value;
    }

    @Override
    void gatherRange(Object src, Object dst, int[] order, int from, int to) {
        final byte[] s = (byte[]) src;
        final byte[] d = (byte[]) dst;
        for (int i = from; i < to; i++) {
            d[i] = s[order[i]];
        }
    }

    @Override
    void bind(Object array) {
        data = (byte[]) array;
    }

    @Override
    public long contentHash(int rows) {
        long h = 0x243F6A8885A308D3L;
        final byte[] d = data;
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
        data[row] = (byte) bits;
    }
}
