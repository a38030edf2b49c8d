package dev.crowdtree.core.random;

/**
 * A counter-based random generator: every draw is a pure function of
 * {@code (seed, agentId, tick, stream, draw)}, so a value does not depend on which worker computes
 * it, in which order agents run, or how many draws other agents made. There is no state to share
 * or to split.
 *
 * <p>Algorithm: the inputs are folded one by one through the SplitMix64 / MurmurHash3 64-bit
 * finalizer ({@link #mix}), which passes BigCrush as a counter-mode generator. Use a distinct
 * {@code stream} per purpose (for example one per transition or per task) and {@code draw} to take
 * several values for one purpose in one tick.
 *
 * <p>Allocation: none. THREADING: stateless and thread-safe.
 */
public final class CounterRng {
    private static final float FLOAT_UNIT = 0x1.0p-24f;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private CounterRng() {
    }

    /** The SplitMix64 finalizer: a bijective 64-bit mixer. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** 64 random bits for one draw. */
    public static long bits(long seed, int agentId, long tick, int stream, int draw) {
        long h = mix(seed + 0x9E3779B97F4A7C15L);
        h = mix(h ^ (agentId & 0xFFFFFFFFL) ^ ((long) stream << 32));
        h = mix(h + tick * 0x9E3779B97F4A7C15L);
        return mix(h ^ draw);
    }

    /** 64 random bits; {@code draw} 0. */
    public static long bits(long seed, int agentId, long tick, int stream) {
        return bits(seed, agentId, tick, stream, 0);
    }

    /** A float uniform in [0, 1), with 24 random bits. */
    public static float uniform(long seed, int agentId, long tick, int stream, int draw) {
        return (bits(seed, agentId, tick, stream, draw) >>> 40) * FLOAT_UNIT;
    }

    /** A float uniform in [0, 1); {@code draw} 0. */
    public static float uniform(long seed, int agentId, long tick, int stream) {
        return uniform(seed, agentId, tick, stream, 0);
    }

    /** A double uniform in [0, 1), with 53 random bits. */
    public static double uniformDouble(long seed, int agentId, long tick, int stream, int draw) {
        return (bits(seed, agentId, tick, stream, draw) >>> 11) * DOUBLE_UNIT;
    }

    /** A float uniform in [min, max). */
    public static float range(float min, float max, long seed, int agentId, long tick, int stream, int draw) {
        return min + (max - min) * uniform(seed, agentId, tick, stream, draw);
    }

    /** An int uniform in [0, bound), bound > 0 (multiply-shift, bias below 2^-32 for small bounds). */
    public static int below(int bound, long seed, int agentId, long tick, int stream, int draw) {
        return (int) (((bits(seed, agentId, tick, stream, draw) >>> 32) * bound) >>> 32);
    }
}
