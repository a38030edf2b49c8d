package dev.crowdtree.demo.sim;

import java.util.Arrays;

/**
 * Agent id to int (a region), open addressing with linear probing; ids are 0 or more. Cleared and
 * refilled every tick by {@link Region}; allocation only when growing.
 */
final class IdMap {
    private int[] keys = new int[64];
    private int[] values = new int[64];
    private int size;

    IdMap() {
        Arrays.fill(keys, -1);
    }

    void clear() {
        if (size > 0) {
            Arrays.fill(keys, -1);
            size = 0;
        }
    }

    int size() {
        return size;
    }

    void put(int key, int value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] >= 0 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (keys[i] < 0) {
            size++;
        }
        keys[i] = key;
        values[i] = value;
    }

    /** The value of {@code key}, or {@code missing}. */
    int get(int key, int missing) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; keys[i] >= 0; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
        }
        return missing;
    }

    /** Keys and values as pairs {@code k0, v0, k1, v1, ...}, by ascending key. */
    int[] toSortedPairs() {
        long[] packed = new long[size];
        int k = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] >= 0) {
                packed[k++] = ((long) keys[i] << 32) | (values[i] & 0xFFFFFFFFL);
            }
        }
        Arrays.sort(packed);
        int[] out = new int[2 * size];
        for (int i = 0; i < size; i++) {
            out[2 * i] = (int) (packed[i] >>> 32);
            out[2 * i + 1] = (int) packed[i];
        }
        return out;
    }

    private void grow() {
        int[] k = keys;
        int[] v = values;
        keys = new int[k.length * 2];
        values = new int[k.length * 2];
        Arrays.fill(keys, -1);
        size = 0;
        for (int i = 0; i < k.length; i++) {
            if (k[i] >= 0) {
                put(k[i], v[i]);
            }
        }
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
