package dev.crowdtree.core.storage;

/**
 * A column of {@code float} values. See {@link Column} for the threading contract of {@link #data()}.
 */
public final class FloatColumn extends Column {
    private float[] data;

    FloatColumn(String name, int capacity) {
        this(name, new float[capacity]);
    }

    private FloatColumn(String name, float[] array) {
        super(name, array);
        this.data = array;
    }

    /** The backing array; valid until the table next grows (only at a sync point). */
    public float[] data() {
        return data;
    }

    public float get(int row) {
        return data[row];
    }

    public void set(int row, float value) {
        data[row] = value;
    }

    @Override
    void gatherRange(Object src, Object dst, int[] order, int from, int to) {
        final float[] s = (float[]) src;
        final float[] d = (float[]) dst;
        for (int i = from; i < to; i++) {
            d[i] = s[order[i]];
        }
    }

    @Override
    void bind(Object array) {
        data = (float[]) array;
    }

    @Override
    public long contentHash(int rows) {
        long h = 0x243F6A8885A308D3L;
        final float[] d = data;
        for (int i = 0; i < rows; i++) {
            h = mixHash(h, Float.floatToRawIntBits(d[i]));
        }
        return h;
    }

    @Override
    public long rowBits(int row) {
        return Float.floatToRawIntBits(data[row]);
    }

    @Override
    public void setRowBits(int row, long bits) {
        data[row] = Float.intBitsToFloat((int) bits);
    }
}
