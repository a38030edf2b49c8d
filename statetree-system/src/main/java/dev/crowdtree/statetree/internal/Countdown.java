package dev.crowdtree.statetree.internal;


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
                err = driftBound(v, d);
                if (before > err && after > err) {
                    return k;
                }
            }
        }
        return exactSteps(v, d);
    }

    /**
     * A tighter bound than the fast path's first one on how far the literal countdown from a normal
     * {@code v} can be from the exact {@code v - j*d}, for every j, counted binade by binade rather
     * than with v's ulp for every step; NaN (no bound: compares false) when a step can be as small as
     * an ulp of v. Each literal step rounds its result x, off by at most half an ulp of x: 2^(e-24) in
     * the binade [2^e, 2^(e+1)) (and nothing below the normal range, where subtraction is exact).
     * Every step takes the value down by at least g = d - 2^(E-24), E being v's exponent, so at most
     * (span / g + 2) results lie in each binade: (v - 2^E) / g + 2 in v's own, 2^e / g + 2 in each one
     * below. Summed: 2^(E-24) ((v - 2^E) + 2^E / 3) / g for the spans, at most 4 * 2^(E-24) for the
     * twos. The step that crosses zero rounds a result of magnitude below 2d: at most ulp(d) more.
     * At v = 50, d = 1/30 it is 0.58 of the first bound, which left about one start in six to the
     * binade walk.
     */
    private static double driftBound(float v, float d) {
        if (v < Float.MIN_NORMAL) {
            return Double.NaN;
        }
        int e = Math.getExponent(v);
        double halfUlp = Math.scalb(1.0, e - 24);
        double g = d - halfUlp;
        if (!(g > halfUlp)) {
            return Double.NaN;
        }
        double top = Math.scalb(1.0, e);
        return (halfUlp * (((v - top) + top / 3) / g + 4) + Math.ulp(d)) * 1.000001;
    }

    /** {@link #steps} by walking the binades (the reference for the fast path, and its fallback). */
    static long exactSteps(float v, float d) {
        float x = v;
        long n = 0;
        while (true) {
            if (x >= Float.MIN_NORMAL) {
                long skip = skip(x, d, Long.MAX_VALUE);
                if (skip < 0) {
                    return NEVER;
                }
                if (skip > 0) {
                    x = Float.intBitsToFloat((int) skip); // every skipped value stays in x's binade, above zero
                    n += skip >>> 32;
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

    /**
     * The value of the countdown after {@code n >= 0} subtractions of {@code d} from {@code v}, also
     * past zero (the value goes on down). Costs a handful of operations per binade the value passes
     * through, whatever {@code n}: within a binade of negative values the magnitude grows by a constant
     * number of units too ({@link #skipAway}), and subnormal values are exact fixed-point numbers.
     */
    public static float after(float v, float d, long n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        if (d < 0f) {
            return -after(-v, -d, n); // x - d = -((-x) - (-d)); negation is exact, rounding symmetric
        }
        float x = v;
        long left = n;
        while (left > 0) {
            if (x >= Float.MIN_NORMAL) {
                long skip = skip(x, d, left);
                if (skip < 0) {
                    return x - d; // stuck after one more step
                }
                if (skip > 0) {
                    x = Float.intBitsToFloat((int) skip);
                    left -= skip >>> 32;
                    continue;
                }
            } else if (x <= -Float.MIN_NORMAL) {
                long skip = skipAway(-x, d, left);
                if (skip < 0) {
                    return x - d; // stuck after one more step
                }
                if (skip > 0) {
                    x = -Float.intBitsToFloat((int) skip);
                    left -= skip >>> 32;
                    continue;
                }
            } else if (d > 0f && d < Float.MIN_NORMAL) {
                // x subnormal or zero and d subnormal: exact integer steps while the value stays subnormal
                long xi = x < 0f ? -(long) Float.floatToRawIntBits(-x) : Float.floatToRawIntBits(x);
                long di = Float.floatToRawIntBits(d);
                long k = Math.min(left, (xi + SUBNORMAL_UNITS - 1) / di);
                if (k > 0) {
                    xi -= k * di;
                    x = xi < 0 ? -Float.intBitsToFloat((int) -xi) : Float.intBitsToFloat((int) xi);
                    left -= k;
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
     * Skips through the binade of the normal, positive {@code x}: returns {@code (k << 32) | bits}
     * where k (3 <= k <= max) subtractions of {@code d} take x to the float with those bits, every
     * intermediate value provably staying in the binade; 0 when fewer than three can be skipped; -1
     * when the countdown is stuck. Integer arithmetic on the mantissas: within the binade every float
     * is 2^e + m * u, and after a possible tie the literal step is a constant number s of units u,
     * measured from two literal steps. From y2 = x - d - d, m2 / s further steps keep m >= 0; the
     * last of the skipped ones starts at least 3s above 2^e, so its exact difference is still in the
     * binade and rounds on its grid like the others (steps near the edge are left to the caller).
     */
    private static long skip(float x, float d, long max) {
        int bx = Float.floatToRawIntBits(x);
        int ex = bx >>> 23;
        if (ex == 0xFF) {
            return -1; // infinity
        }
        float y1 = x - d;
        float y2 = y1 - d;
        if (!(y2 > 0f)) {
            return 0;
        }
        int b1 = Float.floatToRawIntBits(y1);
        int b2 = Float.floatToRawIntBits(y2);
        if ((b1 >>> 23) != ex || (b2 >>> 23) != ex) {
            return 0; // leaves the binade within two steps: the literal loop handles it
        }
        int m2 = b2 & 0x7FFFFF;
        int s = (b1 & 0x7FFFFF) - m2;
        if (s == 0) {
            return -1; // y1 - d == y1: stuck at y1 > 0 for good
        }
        if (s < 0 || max < 3) {
            return 0;
        }
        int m = m2 / s;
        if (m < 3) {
            return 0;
        }
        long k = Math.min(m, max);
        int mant = m2 - (int) (k - 2) * s;
        return (k << 32) | ((ex << 23) | mant);
    }

    /** The bits of {@link Float#MIN_NORMAL}: subnormal magnitudes are the bit patterns below it. */
    private static final long SUBNORMAL_UNITS = Float.floatToRawIntBits(Float.MIN_NORMAL);

    /**
     * {@link #skip} for a countdown past zero: {@code ax} is the magnitude (normal, positive) of a
     * negative value, which each step {@code x - d} (d > 0) takes to {@code -(ax + d)}. Returns
     * {@code (k << 32) | bits} where k (3 <= k <= max) steps take the magnitude to the float with
     * those bits; 0 when fewer than three can be skipped; -1 when it is stuck (d below half its ulp,
     * or infinity). Within the binade {@code [2^e, 2^(e+1))} every magnitude is {@code 2^e + m * u}
     * and, once a possible tie has been broken to even (the first step), each step adds a constant
     * number s of units u, measured from two literal steps. A step from m to m + s rounds on that grid
     * when its exact sum stays below the binade's top by half a unit: {@code m + s <= 2^23 - 2}, since
     * {@code d <= (s + 1/2) u}.
     */
    private static long skipAway(float ax, float d, long max) {
        int bx = Float.floatToRawIntBits(ax);
        int ex = bx >>> 23;
        if (ex == 0xFF) {
            return -1; // infinity
        }
        float y1 = ax + d;
        float y2 = y1 + d;
        int b1 = Float.floatToRawIntBits(y1);
        int b2 = Float.floatToRawIntBits(y2);
        if ((b1 >>> 23) != ex || (b2 >>> 23) != ex) {
            return 0; // leaves the binade within two steps (or d is NaN): the literal loop handles it
        }
        int m2 = b2 & 0x7FFFFF;
        int s = m2 - (b1 & 0x7FFFFF);
        if (s == 0) {
            return -1; // y1 + d == y1: stuck at -y1 for good
        }
        if (s < 0 || max < 3) {
            return 0;
        }
        int i = (0x7FFFFE - m2) / s;
        if (i < 1) {
            return 0;
        }
        long k = Math.min(2L + i, max);
        int mant = m2 + (int) (k - 2) * s;
        return (k << 32) | ((ex << 23) | mant);
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
