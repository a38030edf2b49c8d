package dev.crowdtree.demo.debug;

/** A 64-bit hash of bytes (FNV-1a with a final avalanche), for world hashes of snapshots. */
final class Hash64 {
    private Hash64() {
    }

    static long of(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }
}
