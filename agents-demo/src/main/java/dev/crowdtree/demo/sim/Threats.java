package dev.crowdtree.demo.sim;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.demo.nodes.CrowdWorld;

/**
 * The threats: predators that roam the world and fires that ignite at random places and burn out.
 * Updated on the simulation thread once per tick; read (never written) by the perception kernels
 * during the parallel phases. Randomness is counter-based, keyed by negative ids so it never
 * collides with an agent's streams.
 */
public final class Threats {
    public static final byte PREDATOR = CrowdWorld.PREDATOR;
    public static final byte FIRE = CrowdWorld.FIRE;
    /** Distance within which a predator touches (hits) an agent. */
    public static final float TOUCH_RADIUS = CrowdWorld.TOUCH_RADIUS;

    private static final float PREDATOR_SPEED = 5f;
    private static final float FIRE_RADIUS = 35f;

    final int count;
    public final float[] x;
    public final float[] y;
    final float[] heading;
    public final float[] radius;
    public final byte[] kind;
    public final boolean[] active;
    final int[] timer;
    /** The active threats in index order, 4 floats each: x, y, radius, kind; see {@link #packed()}. */
    private final float[] packed;
    private int activeCount;
    private final float worldSize;
    private final long seed;

    Threats(int predators, int fires, float worldSize, long seed) {
        this.count = predators + fires;
        this.worldSize = worldSize;
        this.seed = seed;
        x = new float[count];
        y = new float[count];
        heading = new float[count];
        radius = new float[count];
        kind = new byte[count];
        active = new boolean[count];
        timer = new int[count];
        for (int i = 0; i < count; i++) {
            kind[i] = i < predators ? PREDATOR : FIRE;
            x[i] = CounterRng.range(0, worldSize, seed, -1 - i, 0, 1, 0);
            y[i] = CounterRng.range(0, worldSize, seed, -1 - i, 0, 1, 1);
            heading[i] = CounterRng.range(0, (float) (2 * Math.PI), seed, -1 - i, 0, 2, 0);
            radius[i] = kind[i] == PREDATOR ? 8f : FIRE_RADIUS;
            active[i] = kind[i] == PREDATOR;
            timer[i] = kind[i] == FIRE ? (int) CounterRng.range(60, 900, seed, -1 - i, 0, 3, 0) : 0;
        }
        packed = new float[4 * count];
        pack();
    }

    /**
     * The active threats in index order, packed for the perception kernels: threat j of
     * {@link #activeCount()} is {@code x, y, radius, kind} at {@code 4j .. 4j+3}. Rebuilt at the end of
     * {@link #update} (so a position set by hand before a tick is seen in that tick); read-only
     * during the parallel phases.
     */
    public float[] packed() {
        return packed;
    }

    /** Number of active threats in {@link #packed()}. */
    public int activeCount() {
        return activeCount;
    }

    void pack() {
        int j = 0;
        for (int i = 0; i < count; i++) {
            if (active[i]) {
                packed[j] = x[i];
                packed[j + 1] = y[i];
                packed[j + 2] = radius[i];
                packed[j + 3] = kind[i];
                j += 4;
            }
        }
        activeCount = j / 4;
    }

    public int count() {
        return count;
    }

    /**
     * Moves predators (a random walk with bounded turns, bouncing off the edges) and counts fires
     * down: an idle fire ignites at a random place when its timer runs out, burns for 20-40 s, then
     * waits 10-30 s. Returns the index of a fire that ignited this tick, or -1.
     */
    int update(long tick, float dt) {
        int ignited = -1;
        for (int i = 0; i < count; i++) {
            int key = -1 - i;
            if (kind[i] == PREDATOR) {
                heading[i] += CounterRng.range(-0.15f, 0.15f, seed, key, tick, 4, 0);
                x[i] += (float) Math.cos(heading[i]) * PREDATOR_SPEED * dt;
                y[i] += (float) Math.sin(heading[i]) * PREDATOR_SPEED * dt;
                if (x[i] < 0 || x[i] > worldSize) {
                    heading[i] = (float) Math.PI - heading[i];
                    x[i] = Math.max(0, Math.min(worldSize, x[i]));
                }
                if (y[i] < 0 || y[i] > worldSize) {
                    heading[i] = -heading[i];
                    y[i] = Math.max(0, Math.min(worldSize, y[i]));
                }
            } else if (--timer[i] <= 0) {
                if (active[i]) {
                    active[i] = false;
                    timer[i] = (int) (CounterRng.range(10, 30, seed, key, tick, 5, 0) / dt);
                } else {
                    active[i] = true;
                    x[i] = CounterRng.range(100, worldSize - 100, seed, key, tick, 6, 0);
                    y[i] = CounterRng.range(100, worldSize - 100, seed, key, tick, 6, 1);
                    timer[i] = (int) (CounterRng.range(20, 40, seed, key, tick, 5, 1) / dt);
                    ignited = i;
                }
            }
        }
        pack();
        return ignited;
    }

    /** A hash of the threat state, for the world hash. */
    long contentHash() {
        long h = 17;
        for (int i = 0; i < count; i++) {
            h = h * 31 + Float.floatToIntBits(x[i]);
            h = h * 31 + Float.floatToIntBits(y[i]);
            h = h * 31 + (active[i] ? 1 : 0);
        }
        return h;
    }
}
