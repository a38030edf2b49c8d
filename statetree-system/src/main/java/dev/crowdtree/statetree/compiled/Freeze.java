package dev.crowdtree.statetree.compiled;

import java.util.List;

/** The builder's lists frozen into the compiled tree's arrays. */
final class Freeze {
    private Freeze() {
    }

    /** The count per state of items whose per-state begins are {@code begins} out of {@code total}. */
    static short[] counts(List<Integer> begins, int total) {
        short[] out = new short[begins.size()];
        for (int s = 0; s < out.length; s++) {
            int end = s + 1 < out.length ? begins.get(s + 1) : total;
            out[s] = (short) (end - begins.get(s));
        }
        return out;
    }

    static short[] shorts(List<? extends Number> l) {
        short[] a = new short[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i).shortValue();
        }
        return a;
    }

    static byte[] bytes(List<Byte> l) {
        byte[] a = new byte[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    static int[] ints(List<Integer> l) {
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    static float[] floats(List<Float> l) {
        float[] a = new float[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    static double[] doubles(List<Double> l) {
        double[] a = new double[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    static boolean[] booleans(List<Boolean> l) {
        boolean[] a = new boolean[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }
}
