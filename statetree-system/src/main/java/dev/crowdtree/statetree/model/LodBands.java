package dev.crowdtree.statetree.model;

import java.util.Arrays;
import java.util.Locale;

/**
 * Level of detail by distance to the observer, Mass style: an agent's StateTree tick period is
 * chosen from the band its distance falls in. The default bands for the 2 km x 2 km world:
 *
 * <pre>
 *   period 1  within 100 m       (on screen, close up: every tick)
 *   period 2  100 m - 250 m
 *   period 4  250 m - 500 m
 *   period 8  beyond 500 m       (with the observer at the centre, ~80% of the world)
 * </pre>
 *
 * Hysteresis: an agent moves to a finer band (shorter period) as soon as it is inside that band's
 * outer distance, but to a coarser one only once it is {@value #HYSTERESIS_PERCENT}% beyond the
 * boundary, so agents walking along a boundary do not flip their period every tick.
 *
 * <p>Immutable; {@link #band} and {@link #assign} are allocation-free and safe from any thread.
 */
public final class LodBands {
    /** How far (in percent of a boundary's distance) an agent must pass it outward to coarsen. */
    public static final int HYSTERESIS_PERCENT = 10;
    private static final int[] PERIODS = {1, 2, 4, 8, 16, 32, 64};

    private final float[] distances;
    private final int[] periods;
    private final float[] inner2;
    private final float[] outer2;

    /**
     * Bands with boundaries {@code distances} (metres, ascending, > 0) and {@code periods} (one more
     * than the boundaries, ascending, each in 1, 2, 4, ..., 64): band i is below {@code distances[i]},
     * the last band beyond the last boundary.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public LodBands(float[] distances, int[] periods) {
        if (periods.length != distances.length + 1) {
            throw new IllegalArgumentException("LOD bands: " + periods.length + " periods for " + distances.length
                    + " boundaries; need one period more than boundaries");
        }
        for (int i = 0; i < distances.length; i++) {
            if (!(distances[i] > 0 && Float.isFinite(distances[i])) || i > 0 && !(distances[i] > distances[i - 1])) {
                throw new IllegalArgumentException("LOD bands: boundaries must be finite, positive and ascending: "
                        + Arrays.toString(distances));
            }
        }
        for (int i = 0; i < periods.length; i++) {
            if (Arrays.binarySearch(PERIODS, periods[i]) < 0 || i > 0 && periods[i] <= periods[i - 1]) {
                throw new IllegalArgumentException("LOD bands: periods must be ascending powers of two in 1..64: "
                        + Arrays.toString(periods));
            }
        }
        this.distances = distances.clone();
        this.periods = periods.clone();
        this.inner2 = new float[distances.length];
        this.outer2 = new float[distances.length];
        for (int i = 0; i < distances.length; i++) {
            float d = distances[i];
            float o = d * (100 + HYSTERESIS_PERCENT) / 100f;
            inner2[i] = d * d;
            outer2[i] = o * o;
        }
    }

    /** The default bands: period 1 within 100 m, 2 within 250 m, 4 within 500 m, 8 beyond. */
    public static LodBands defaults() {
        return new LodBands(new float[] {100f, 250f, 500f}, new int[] {1, 2, 4, 8});
    }

    /**
     * The default bands scaled to a world {@code extent} across: boundaries at 1/20, 1/8 and 1/4 of
     * it (for the crowd's 2,000 m world: {@link #defaults()}), periods 1, 2, 4 and 8.
     */
    public static LodBands scaledTo(float extent) {
        if (!(extent > 0) || !Float.isFinite(extent)) {
            throw new IllegalArgumentException("LOD bands: the world's extent " + extent + " must be positive and finite");
        }
        return new LodBands(new float[] {extent / 20, extent / 8, extent / 4}, new int[] {1, 2, 4, 8});
    }

    /** The boundaries, ascending (a copy). */
    public float[] distances() {
        return distances.clone();
    }

    /** The periods of the bands, ascending (a copy). */
    public int[] periods() {
        return periods.clone();
    }

    /** Number of bands (one more than boundaries). */
    public int count() {
        return periods.length;
    }

    /** The tick period of band {@code band}. */
    public int periodOfBand(int band) {
        return periods[band];
    }

    /** The band (0 = finest) whose period is {@code period}, or -1. */
    public int bandOfPeriod(int period) {
        for (int b = 0; b < periods.length; b++) {
            if (periods[b] == period) {
                return b;
            }
        }
        return -1;
    }

    /**
     * The band of an agent at squared distance {@code d2} from the observer that was in band
     * {@code current} (-1: none yet, take the band by distance): finer as soon as it is inside,
     * coarser only past the boundary plus the hysteresis.
     */
    public int band(float d2, int current) {
        int in = 0;
        while (in < inner2.length && !(d2 < inner2[in])) {
            in++;
        }
        if (current < 0 || in < current) {
            return in;
        }
        int out = 0;
        while (out < outer2.length && !(d2 < outer2[out])) {
            out++;
        }
        return Math.max(current, out);
    }

    /**
     * Level of detail for rows {@code begin .. end-1}: each agent's band by its squared distance from
     * the observer ({@code ox}, {@code oy}), kept in {@code band} as band + 1 (0: none yet); an agent
     * whose band changed gets the band's period through {@code sink} (not when it enters its first
     * band with period 1, the runtime's default). Allocation-free; rows of one chunk per call.
     */
    public void assign(float[] x, float[] y, byte[] band, int begin, int end, float ox, float oy, TickPeriods sink) {
        for (int r = begin; r < end; r++) {
            float dx = x[r] - ox;
            float dy = y[r] - oy;
            int current = band[r] - 1; // -1: no band yet, the runtime's default period 1
            int b = band(dx * dx + dy * dy, current);
            if (b != current) {
                band[r] = (byte) (b + 1);
                int p = periods[b];
                if (current >= 0 || p != 1) {
                    sink.setTickPeriodOfRow(r, p);
                }
            }
        }
    }

    /** "period 1: within 100 m" style descriptions, one per band. */
    public String describe(int band) {
        if (distances.length == 0) {
            return String.format(Locale.ROOT, "period %d: everywhere", periods[0]);
        }
        if (band == 0) {
            return String.format(Locale.ROOT, "period %d: within %s m", periods[0], metres(distances[0]));
        }
        if (band == periods.length - 1) {
            return String.format(Locale.ROOT, "period %d: beyond %s m", periods[band], metres(distances[band - 1]));
        }
        return String.format(Locale.ROOT, "period %d: %s-%s m", periods[band], metres(distances[band - 1]),
                metres(distances[band]));
    }

    private static String metres(float d) {
        return d == Math.rint(d) ? Integer.toString((int) d) : Float.toString(d);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("LodBands[");
        for (int b = 0; b < count(); b++) {
            sb.append(b == 0 ? "" : "; ").append(describe(b));
        }
        return sb.append(']').toString();
    }
}
