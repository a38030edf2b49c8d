package dev.crowdtree.statetree.internal;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link Countdown} against the literal loop it replaces ({@code v = v - d} once per tick): the
 * number of steps to reach zero and the value after any number of steps must be identical, bit for
 * bit, for timer values and tick lengths of every magnitude, including ties, steps below the
 * value's precision, subnormals, zero, infinity and NaN.
 */
class CountdownTest {
    /** The literal loop, capped: {@code NEVER} when it does not reach zero within {@code cap} steps. */
    private static long literalSteps(float v, float d, long cap) {
        float x = v;
        for (long n = 1; n <= cap; n++) {
            x = x - d;
            if (x <= 0f) {
                return n;
            }
        }
        return Countdown.NEVER;
    }

    private static float literalAfter(float v, float d, long n) {
        float x = v;
        for (long i = 0; i < n; i++) {
            x = x - d;
        }
        return x;
    }

    private static void check(float v, float d, long cap) {
        long expected = literalSteps(v, d, cap);
        for (long actual : new long[] {Countdown.steps(v, d), Countdown.exactSteps(v, d)}) {
            if (expected == Countdown.NEVER ? actual <= cap : actual != expected) {
                fail("steps(" + v + "f, " + d + "f) = " + actual + ", the literal loop says "
                        + (expected == Countdown.NEVER ? "more than " + cap : expected));
            }
        }
    }

    @Test
    void fastPathAgreesWhereTheQuotientIsNearAnInteger() {
        // values that are (almost) exact multiples of the step: where rounding decides the tick
        SplittableRandom rnd = new SplittableRandom(3);
        float[] dts = {1f / 30f, 0.1f, 1f / 60f, 0.2f, 1f / 7f};
        for (int i = 0; i < 300_000; i++) {
            float d = dts[rnd.nextInt(dts.length)] * (1 << rnd.nextInt(6));
            int k = 1 + rnd.nextInt(3000);
            float v = k * d;
            v = Math.nextAfter(v, rnd.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
            if (rnd.nextInt(3) == 0) {
                v = (float) ((double) k * d);
            }
            check(v, d, 10_000);
        }
    }

    @Test
    void stepsMatchTheLiteralLoopForTimerLikeValues() {
        SplittableRandom rnd = new SplittableRandom(42);
        float[] dts = {1f / 30f, 1f / 60f, 0.1f, 0.25f, 1f / 3f, 0.05f, 1f / 144f, 0.016666668f};
        for (int i = 0; i < 200_000; i++) {
            float d = i % 2 == 0 ? dts[rnd.nextInt(dts.length)] * (1 << rnd.nextInt(7)) : (float) rnd.nextDouble(1e-3, 2);
            float v = (float) (rnd.nextDouble() * 120);
            check(v, d, 10_000_000);
        }
    }

    @Test
    void stepsMatchTheLiteralLoopForLongDelaysWhereTheFirstBoundIsTooWide() {
        // long delays at 30 ticks/s: the binade-by-binade bound decides where the first one did not
        SplittableRandom rnd = new SplittableRandom(11);
        float[] dts = {1f / 30f, 1f / 60f, 0.1f};
        for (int i = 0; i < 100_000; i++) {
            float d = dts[rnd.nextInt(dts.length)];
            float v = (float) rnd.nextDouble(4, 64);
            if (rnd.nextInt(4) == 0) {
                v = Math.nextAfter(Math.round(v / d) * d, rnd.nextBoolean() ? 1e9 : -1e9);
            }
            check(v, d, 100_000);
        }
    }

    @Test
    void stepsMatchAcrossMagnitudesAndTies() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            // random bit patterns give values of every exponent, ties and exactly representable steps
            float v = Float.intBitsToFloat(rnd.nextInt(0x7F800000));
            int exp = Math.getExponent(v) - rnd.nextInt(1, 26);
            float d = Math.scalb(1f + rnd.nextInt(1 << 23) / (float) (1 << 23), exp);
            if (rnd.nextInt(4) == 0) {
                d = Math.scalb(1f + rnd.nextInt(8) / 8f, exp); // few mantissa bits: many exact ties
            }
            double ratio = (double) v / d;
            if (ratio < 200_000) {
                check(v, d, (long) ratio + 4);
            }
        }
    }

    @Test
    void valueAfterNStepsMatchesTheLiteralLoop() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 50_000; i++) {
            float d = rnd.nextBoolean() ? 1f / 30f * (1 << rnd.nextInt(6)) : (float) rnd.nextDouble(1e-4, 1);
            float v = (float) (rnd.nextDouble() * 100);
            long n = rnd.nextInt(Math.max(1, (int) Math.min(50_000, v / d * 1.2 + 2)));
            float expected = literalAfter(v, d, n);
            float actual = Countdown.after(v, d, n);
            if (Float.floatToRawIntBits(expected) != Float.floatToRawIntBits(actual)) {
                fail("after(" + v + "f, " + d + "f, " + n + ") = " + actual + ", the literal loop gives " + expected);
            }
        }
    }

    /**
     * Issue 34, defect 3: a value counted far past zero (a timer whose due step lies long before the
     * step a snapshot says it is at) walked the literal loop once per step below zero, 34 ms per
     * timer. The value past zero is the literal loop's too, and costs a few operations per binade.
     */
    @Test
    void valuePastZeroMatchesTheLiteralLoopAndCostsLittle() {
        SplittableRandom rnd = new SplittableRandom(34);
        for (int i = 0; i < 20_000; i++) {
            float d;
            switch (i % 4) {
                case 0 -> d = 1f / 30f * (1 << rnd.nextInt(6));
                case 1 -> d = (float) rnd.nextDouble(1e-4, 4);
                case 2 -> d = Math.scalb(1f + rnd.nextInt(8) / 8f, rnd.nextInt(-12, 4)); // ties
                default -> d = -(float) rnd.nextDouble(1e-3, 2); // a negative step counts up
            }
            float v = rnd.nextInt(5) == 0 ? -(float) rnd.nextDouble(1e3) : (float) (rnd.nextDouble() * 100);
            long n = rnd.nextInt(1, 60_000);
            float expected = literalAfter(v, d, n);
            float actual = Countdown.after(v, d, n);
            if (Float.floatToRawIntBits(expected) != Float.floatToRawIntBits(actual)) {
                fail("after(" + v + "f, " + d + "f, " + n + ") = " + actual + ", the literal loop gives " + expected);
            }
        }
        float[][] cases = {{Float.MIN_VALUE * 1000, Float.MIN_VALUE * 3}, {-Float.MIN_VALUE * 7, Float.MIN_VALUE * 5},
                {0f, Float.MIN_VALUE * 11}, {-0f, Float.MIN_VALUE}, {Float.MIN_NORMAL * 2, Float.MIN_VALUE * 999},
                {1f, Math.ulp(1f) / 2}, {-1f, Math.ulp(1f) / 2}, {-1f, Math.ulp(1f) * 1.5f}, {3f, Float.POSITIVE_INFINITY}};
        for (float[] c : cases) {
            for (long n : new long[] {1, 2, 3, 7, 1000, 3_000_000}) {
                float expected = literalAfter(c[0], c[1], n);
                float actual = Countdown.after(c[0], c[1], n);
                assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(actual),
                        "after(" + c[0] + "f, " + c[1] + "f, " + n + ") = " + actual + ", the literal loop gives " + expected);
            }
        }
        // stuck far below zero: the literal loop would take some 2^24 steps per call to get there
        float far = literalAfter(5f, 1f / 30f, 40_000_000);
        long t0 = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            assertEquals(far, Countdown.after(5f, 1f / 30f, 2_000_000_000L - i));
        }
        long micros = (System.nanoTime() - t0) / 1000;
        assertTrue(micros < 500_000, "1,000 values far past zero took " + micros + " us (the literal loop: 40 s)");
    }

    @Test
    void edgeCases() {
        assertEquals(1, Countdown.steps(0f, 0.1f), "a timer at zero runs out on its first tick");
        assertEquals(1, Countdown.steps(-3f, 0.1f));
        assertEquals(1, Countdown.steps(0.1f, 0.1f));
        assertEquals(Countdown.NEVER, Countdown.steps(Float.NaN, 0.1f));
        assertEquals(Countdown.NEVER, Countdown.steps(Float.POSITIVE_INFINITY, 0.1f));
        assertEquals(Countdown.NEVER, Countdown.steps(1e9f, 1e-3f), "a step below the value's precision never counts down");
        assertEquals(Countdown.NEVER, Countdown.steps(1f, 0f));
        assertEquals(Countdown.NEVER, Countdown.steps(1f, Float.NaN));
        assertEquals(1, Countdown.steps(1e30f, Float.POSITIVE_INFINITY));
        check(Float.MIN_VALUE * 1000, Float.MIN_VALUE * 3, 1000);
        check(Float.MIN_NORMAL * 3, Float.MIN_VALUE * 1001, 1_000_000);
        check(Float.MIN_NORMAL, Float.MIN_NORMAL / 3, 10);
        check(1f, Math.ulp(1f) / 2, 100); // ties at every step: 1 - ulp/2 rounds to even
        check(2f, Math.ulp(1f) * 64, 1_000_000);
        check(16_777_216f, 16f, 2_000_000);
        assertEquals(Float.NaN, Countdown.after(Float.NaN, 1f, 5));
        assertEquals(1e9f, Countdown.after(1e9f, 1e-3f, 1_000_000_000_000L), "a stuck value stays");
        assertEquals(5f, Countdown.after(5f, 0.1f, 0));
    }
}
