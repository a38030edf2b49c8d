package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The built-in kernels' fast paths give exactly the results of their plain definitions. */
class BuiltinKernelsTest {
    private static final int N = 4096;
    /** Infinities, both zeros, the smallest and largest magnitudes (the ends of the branch-free key ranges). */
    private static final double[] EDGES = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0,
            Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, Double.MIN_VALUE, -Double.MAX_VALUE};

    @Test
    void compareOnAFloatSlotEqualsTheDoubleComparison() {
        SplittableRandom rnd = new SplittableRandom(3);
        float[] a = new float[N];
        int[] rows = new int[N];
        boolean[] out = new boolean[N];
        boolean[] scratch = new boolean[N];
        int[] passed = new int[N];
        ContextControl control = new ContextControl();
        NodeContext ctx = control.context();
        control.bindSlots(new float[][] {a}, new int[0][], new byte[0][], rows);
        for (int round = 0; round < 400; round++) {
            double b = switch (round % 6) {
                case 0 -> rnd.nextInt(21) / 10.0;           // decimal constants, mostly not floats
                case 1 -> (double) (float) rnd.nextDouble(-5, 5); // exactly a float
                case 2 -> rnd.nextDouble(-1e40, 1e40);      // beyond float range too
                case 3 -> Double.NaN;
                case 4 -> EDGES[rnd.nextInt(EDGES.length)];
                default -> Math.nextUp((double) (float) rnd.nextDouble(-2, 2));
            };
            float bf = (float) b;
            for (int i = 0; i < N; i++) {
                rows[i] = i;
                a[i] = switch (rnd.nextInt(6)) {
                    case 5 -> (float) EDGES[rnd.nextInt(EDGES.length)];
                    case 0 -> bf;
                    case 1 -> Math.nextUp(bf);
                    case 2 -> Math.nextDown(bf);
                    case 3 -> rnd.nextInt(50) == 0 ? Float.NaN : (float) rnd.nextDouble(-3, 3);
                    default -> Float.intBitsToFloat(rnd.nextInt());
                };
            }
            if (round % 2 == 1) {
                // a uniform sample (the first rows all alike): the plain loop tests the rest
                java.util.Arrays.fill(a, 0, Condition.SAMPLE, a[Condition.SAMPLE]);
            }
            for (String op : CompareCondition.OPS) {
                Map<String, Object> values = new HashMap<>();
                values.put("input", ValueInput.slot(ValueType.FLOAT, 0, "a"));
                values.put("op", op);
                values.put("value", ValueInput.constant(ValueType.FLOAT, b));
                CompareCondition c = new CompareCondition(new NodeConfig("compare", "c", 0, values, Map.of()));
                c.test(ctx, rows, 0, N, out);
                for (int i = 0; i < N; i++) {
                    assertCompared(op, a[i], b, out[i]);
                }
                // select: the positions that pass, the same results; from a few rows in, so that the
                // sample (and which loop it picks) starts elsewhere
                int from = round % 5;
                int k = c.select(ctx, rows, from, N, scratch, passed);
                int j = 0;
                for (int i = from; i < N; i++) {
                    if (out[i]) {
                        assertEquals(i, passed[j++], "select of " + op + " " + b);
                    }
                }
                assertEquals(j, k, "passes of " + op + " " + b);
            }
        }
    }

    @Test
    void passesCollectsTheTruePositionsWhicheverLoopTheSampleChooses() {
        SplittableRandom rnd = new SplittableRandom(11);
        boolean[] results = new boolean[N];
        int[] passed = new int[N];
        for (int round = 0; round < 200; round++) {
            // none, a few (the branch), a quarter and nearly all (no branch) of the sample pass
            int oneIn = new int[] {N * 2, 500, 4, 1}[round % 4];
            for (int i = 0; i < N; i++) {
                results[i] = rnd.nextInt(oneIn) == 0;
            }
            int from = rnd.nextInt(100);
            int to = N - rnd.nextInt(100);
            int k = Condition.passes(results, from, to, passed);
            int j = 0;
            for (int i = from; i < to; i++) {
                if (results[i]) {
                    assertEquals(i, passed[j++]);
                }
            }
            assertEquals(j, k);
        }
    }

    @Test
    void compareOfTwoFloatSlotsEqualsTheDoubleComparison() {
        SplittableRandom rnd = new SplittableRandom(5);
        float[] a = new float[N];
        float[] b = new float[N];
        int[] rows = new int[N];
        boolean[] out = new boolean[N];
        ContextControl control = new ContextControl();
        NodeContext ctx = control.context();
        control.bindSlots(new float[][] {a, b}, new int[0][], new byte[0][], rows);
        for (int round = 0; round < 200; round++) {
            for (int i = 0; i < N; i++) {
                rows[i] = N - 1 - i;
                b[i] = switch (rnd.nextInt(4)) {
                    case 0 -> (float) EDGES[rnd.nextInt(EDGES.length)];
                    case 1 -> Float.intBitsToFloat(rnd.nextInt());
                    default -> (float) rnd.nextDouble(-3, 3);
                };
                a[i] = switch (rnd.nextInt(6)) {
                    case 0 -> b[i];
                    case 1 -> Math.nextUp(b[i]);
                    case 2 -> Math.nextDown(b[i]);
                    case 3 -> (float) EDGES[rnd.nextInt(EDGES.length)];
                    case 4 -> Float.intBitsToFloat(rnd.nextInt());
                    default -> (float) rnd.nextDouble(-3, 3);
                };
            }
            if (round % 2 == 1) {
                // a uniform sample (the rows tested first all alike): the plain loop tests the rest
                for (int i = 0; i < Condition.SAMPLE; i++) {
                    a[rows[i]] = 1f;
                    b[rows[i]] = 2f;
                }
            }
            for (String op : CompareCondition.OPS) {
                Map<String, Object> values = new HashMap<>();
                values.put("input", ValueInput.slot(ValueType.FLOAT, 0, "a"));
                values.put("op", op);
                values.put("value", ValueInput.slot(ValueType.FLOAT, 1, "b"));
                CompareCondition c = new CompareCondition(new NodeConfig("compare", "c", 0, values, Map.of()));
                c.test(ctx, rows, 0, N, out);
                for (int i = 0; i < N; i++) {
                    assertCompared(op, a[rows[i]], b[rows[i]], out[i]);
                }
            }
        }
    }

    /** {@code actual} is the double comparison {@code x op y}. */
    private static void assertCompared(String op, double x, double y, boolean actual) {
        boolean expected = switch (op) {
            case "==" -> x == y;
            case "!=" -> x != y;
            case "<" -> x < y;
            case "<=" -> x <= y;
            case ">" -> x > y;
            default -> x >= y;
        };
        if (actual != expected) {
            assertEquals(expected, actual, x + " " + op + " " + y);
        }
    }

    @Test
    void waveRangeAndRowListGiveTheSameBits() {
        Map<String, Object> values = new HashMap<>();
        values.put("period", 20.0);
        values.put("amplitude", 1.5);
        values.put("offset", -0.25);
        values.put("shape", "triangle");
        Map<String, Integer> fields = Map.of("value", 0, "t", 1, "phase", 2);
        WaveEvaluator w = new WaveEvaluator(new NodeConfig("wave", "w", 5, values, fields));
        float[][] a = new float[3][N];
        float[][] b = new float[3][N];
        int[] ids = new int[N];
        int[] rows = new int[N];
        for (int i = 0; i < N; i++) {
            ids[i] = i;
            rows[i] = i;
        }
        ContextControl controlA = new ContextControl();
        ContextControl controlB = new ContextControl();
        NodeContext ca = controlA.context();
        NodeContext cb = controlB.context();
        controlA.ensureScratch(1, N);
        controlA.bindSlots(a, new int[0][], new byte[0][], ids);
        controlB.bindSlots(b, new int[0][], new byte[0][], ids);
        w.treeStart(ca, rows, 0, N);
        w.treeStart(cb, rows, 0, N);
        for (int k = 1; k <= 3000; k++) {
            controlA.setTime(1, k, 1f / 30f);
            controlB.setTime(1, k, 1f / 30f);
            w.tickRange(ca, 0, N);
            w.tick(cb, rows, 0, N);
        }
        for (int i = 0; i < N; i++) {
            assertEquals(Float.floatToIntBits(b[0][i]), Float.floatToIntBits(a[0][i]), "value of row " + i);
            assertEquals(Float.floatToIntBits(b[1][i]), Float.floatToIntBits(a[1][i]), "time of row " + i);
        }
    }
}
