package dev.crowdtree.statetree.exec;

/**
 * Exact arithmetic of a float countdown {@code v = v - d} repeated once per tick, the rule every
 * timer of docs/SEMANTICS.md follows (a {@code delay}'s remaining time, a gate's delay). The
 * reference interpreter performs the subtractions one tick at a time; the batched runtime instead
 * computes, when a timer starts, the tick at which it runs out ({@link #steps}) and sleeps until then.
 * Both give the same tick because these functions return exactly what the repeated float
 * subtraction gives, not an approximation such as {@code ceil(v / d)}.
 *
 * <p>Algorithm: within one binade {@code [2^e, 2^(e+1))} every float is a multiple of the same ulp
 * {@code u}, and {@code x - d} rounded to that grid is {@code x - s} for a step {@code s} that is
 * constant once a possible tie has been broken to even; so after two literal steps measure
 * {@code s}, the number of further steps that stay inside the binade is an integer division, taken
 * with a margin of two steps so that the literal steps near the binade's lower edge (where the
 * result may round in the finer binade below) are done one by one. A countdown from {@code v} with
 * step {@code d} therefore costs a handful of operations per binade between {@code v} and {@code d},
 * at most a few hundred in total, instead of {@code v / d}. Subnormal values are exact fixed-point
 * numbers and are counted with integer arithmetic. Java float arithmetic is IEEE 754
 * round-to-nearest-even on every platform (JEP 306), so results are the same everywhere.
 *
 * <p>Allocation: none. THREADING: stateless; safe from any thread.
 */
public final class Countdown {
    /** {@link #steps} result for a countdown that never reaches zero (NaN, infinity, a step too small to change it). */
    public static final long NEVER = Long.MAX_VALUE;

    private Countdown() {
    }

    /**
     * The number {@code n >= 1} of subtractions {@code v = v - d} after which {@code v <= 0} for the
     * first time (the check follows each subtraction, so a countdown that starts at or below zero
     * takes one), or {@link #NEVER}.
     */
    public static long steps(float v, float d) {
        if (v > 0f && d >= Float.MIN_NORMAL && v < Float.MAX_VALUE && d < Float.MAX_VALUE) {
            // Fast path. Each literal step x = fl(x - d) is off from the exact x - d by at most half
            // an ulp of its result, and every result before the last is in (0, v], so after j steps
            // the literal value is within j * u / 2 of the exact v - j*d, u = ulp(max(v, d)). So when
            // k = ceil(v / d) leaves the exact values at steps k-1 and k farther than that from zero,
            // the literal countdown also crosses zero exactly at step k. (The doubles below are exact
            // to far better than the margins compared.)
            double q = (double) v / d;
            if (q < 1e12) {
                long k = (long) Math.ceil(q);
                if (k < 1) {
                    k = 1;
                }
                double err = k * (double) Math.ulp(Math.max(v, d)) * 0.5000001;
                double before = v - (k - 1) * (double) d; // > 0 required: not done at step k-1
                double after = k * (double) d - v;        // >= 0 required: done at step k
                if (before > err && after > err) {
                    return k;
                }
            }
        }
        return exactSteps(v, d);
    }

    /** {@link #steps} by walking the binades (the reference for the fast path, and its fallback). */
    static long exactSteps(float v, float d) {
        float x = v;
        long n = 0;
        while (true) {
            if (x >= Float.MIN_NORMAL) {
                long skip = skippable(x, d);
                if (skip < 0) {
                    return NEVER;
                }
                if (skip > 0) {
                    x = skipped(x, d, skip); // every skipped value stays in x's binade, above zero
                    n += skip;
                }
            } else if (x > 0f) {
                return n + subnormalSteps(x, d);
            }
            float y = x - d;
            n++;
            if (y <= 0f) {
                return n;
            }
            if (!(y < x)) {
                return NEVER; // no progress: d too small for x's precision, d <= 0, NaN or infinity
            }
            x = y;
        }
    }

    /** The value of the countdown after {@code n >= 0} subtractions of {@code d} from {@code v}. */
    public static float after(float v, float d, long n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        float x = v;
        long left = n;
        while (left > 0) {
            if (x >= Float.MIN_NORMAL) {
                long skip = skippable(x, d);
                if (skip < 0) {
                    return x - d; // stuck after one more step
                }
                if (skip > 0) {
                    skip = Math.min(skip, left);
                    x = skipped(x, d, skip);
                    left -= skip;
                    continue;
                }
            }
            float y = x - d;
            left--;
            if (y == x || y != y) {
                return y; // the value no longer changes (d too small, infinity, NaN)
            }
            x = y;
        }
        return x;
    }

    /**
     * How many subtractions of {@code d} from the normal, positive {@code x} {@link #skipped} may
     * apply at once while every intermediate value provably stays in {@code x}'s binade (0 when
     * fewer than three), or -1 when the countdown is stuck there.
     */
    private static long skippable(float x, float d) {
        int e = Math.getExponent(x);
        if (e > Float.MAX_EXPONENT) {
            return -1; // infinity
        }
        float y1 = x - d;
        float y2 = y1 - d;
        if (!(y2 > 0f) || Math.getExponent(y1) != e || Math.getExponent(y2) != e) {
            return 0; // leaves the binade within two steps: the literal loop handles it
        }
        float s = y1 - y2; // exact: both on the binade's grid
        if (s == 0f) {
            return -1; // y1 - d == y1: stuck at y1 > 0 for good
        }
        float lo = Math.scalb(1f, e);
        float ulp = Math.ulp(lo);
        long a = (long) ((y2 - lo) / ulp); // exact integers below 2^24
        long b = (long) (s / ulp);
        // y1, y2, then m - 2 steps of s from y2: the last one starts at least 3s above lo, so the
        // exact difference stays above lo and rounds on this binade's grid like the others.
        long m = a / b;
        return m >= 3 ? m : 0;
    }

    /** {@code x} after {@code k >= 2} steps as {@link #skippable} measured them. */
    private static float skipped(float x, float d, long k) {
        int e = Math.getExponent(x);
        float y1 = x - d;
        float y2 = y1 - d;
        float s = y1 - y2;
        float lo = Math.scalb(1f, e);
        float ulp = Math.ulp(lo);
        long a = (long) ((y2 - lo) / ulp);
        long b = (long) (s / ulp);
        return lo + (float) (a - (k - 2) * b) * ulp; // the integer is below 2^24, so exact
    }

    /** Steps for a subnormal {@code x > 0}: subnormal subtraction is exact fixed-point arithmetic. */
    private static long subnormalSteps(float x, float d) {
        if (d >= Float.MIN_NORMAL || !(d > 0f)) {
            float y = x - d;
            return y <= 0f ? 1 : NEVER; // a normal d takes any subnormal x below zero in one step
        }
        long xi = Float.floatToRawIntBits(x);
        long di = Float.floatToRawIntBits(d);
        return (xi + di - 1) / di;
    }
}
