package dev.crowdtree.core.storage;

/**
 * A column of {@code byte} values. See {@link Column} for the threading contract of {@link #data()}.
 */
public final class ByteColumn extends Column {
    private byte[] data;
    private byte[] spare;

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
    void gather(int[] order, int n) {
        byte[] src = data;
        byte[] dst = spare == null || spare.length != src.length ? new byte[src.length] : spare;
        for (int i = 0; i < n; i++) {
            dst[i] = src[order[i]];
        }
        spare = src;
        data = dst;
        rebind(dst);
    }

    @Override
    void bind(Object array) {
        data = (byte[]) array;
        spare = null;
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
