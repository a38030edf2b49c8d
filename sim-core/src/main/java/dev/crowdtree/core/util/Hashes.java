package dev.crowdtree.core.util;

/** Hashes of bytes that do not change between runs, JVMs or machines. Stateless. */
public final class Hashes {
    private Hashes() {
    }

    /** 64-bit FNV-1a of {@code bytes}, then a final avalanche (MurmurHash3's fmix64, two rounds). */
    public static long fnv1a64(byte[] bytes) {
        long h = 0xCBF29CE484222325L;
        for (byte x : bytes) {
            h = (h ^ (x & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return h;
    }
}
