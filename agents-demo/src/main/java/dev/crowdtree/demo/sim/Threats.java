package dev.crowdtree.demo.sim;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.world.World;
import dev.crowdtree.demo.nodes.CrowdWorld;
import dev.crowdtree.demo.nodes.ThreatBlocks;
import dev.crowdtree.demo.sim.CrowdComponents.Fire;
import dev.crowdtree.demo.sim.CrowdComponents.Position;
import dev.crowdtree.demo.sim.CrowdComponents.Predator;
import dev.crowdtree.demo.sim.CrowdComponents.Threat;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Results;

/**
 * The threats: predators that roam the world and fires that ignite at random places and burn out,
 * as Dominion entities of the simulation's world ({@link CrowdComponents}: a predator is
 * {@code Threat + Position + Predator}, a fire {@code Threat + Position + Fire}). Randomness is
 * counter-based, keyed by negative ids so it never collides with an agent's streams.
 *
 * <p>The entities are created and found again with Dominion queries once, here, and their
 * components kept by threat index: the update then runs over them in index order, so neither
 * Dominion's iteration order nor its allocating queries (a map, an iterator and a record per entity
 * each time) are part of a tick. After each change the simulation thread copies the components into
 * flat arrays ({@link #packed()}, {@link #x}, {@link #y}, {@link #radius}, {@link #kind},
 * {@link #active}), which the perception kernels and the viewer read.
 *
 * <p>THREADING: the simulation thread writes the components and the arrays in {@link #update}
 * (the threat phase, before the parallel phases) and between ticks; workers only read the arrays,
 * and only during the parallel phases, which start after the update (the executor's hand-off
 * orders the writes before the reads). Workers never touch Dominion.
 */
public final class Threats {
    public static final byte PREDATOR = CrowdWorld.PREDATOR;
    public static final byte FIRE = CrowdWorld.FIRE;
    /** Distance within which a predator touches (hits) an agent. */
    public static final float TOUCH_RADIUS = CrowdWorld.TOUCH_RADIUS;

    private static final float PREDATOR_SPEED = 5f;
    private static final float PREDATOR_RADIUS = 8f;
    private static final float FIRE_RADIUS = 35f;

    final int count;
    /** By threat index, as of the last update: position, radius, kind and whether it is active. Read-only. */
    public final float[] x;
    public final float[] y;
    public final float[] radius;
    public final byte[] kind;
    public final boolean[] active;
    /** The components by threat index, from the Dominion queries; a threat has a predator or a fire. */
    private final Position[] position;
    private final Predator[] predator;
    private final Fire[] fire;
    /** The active threats in index order, 4 floats each: x, y, radius, kind; see {@link #packed()}. */
    private final float[] packed;
    /** Per-block candidate lists of the packed threats, rebuilt with them. */
    private final ThreatBlocks blocks;
    private int activeCount;
    private final float worldSize;
    private final long seed;

    Threats(World world, int predators, int fires, float worldSize, long seed) {
        this.count = predators + fires;
        this.worldSize = worldSize;
        this.seed = seed;
        x = new float[count];
        y = new float[count];
        radius = new float[count];
        kind = new byte[count];
        active = new boolean[count];
        position = new Position[count];
        predator = new Predator[count];
        fire = new Fire[count];
        packed = new float[4 * count];
        blocks = new ThreatBlocks(worldSize, count, ThreatBlocks.DEFAULT_REACH);
        for (int i = 0; i < count; i++) {
            Position p = new Position(CounterRng.range(0, worldSize, seed, -1 - i, 0, 1, 0),
                    CounterRng.range(0, worldSize, seed, -1 - i, 0, 1, 1));
            if (i < predators) {
                world.createEntity(new Threat(i, PREDATOR_RADIUS), p,
                        new Predator(CounterRng.range(0, (float) (2 * Math.PI), seed, -1 - i, 0, 2, 0)));
            } else {
                world.createEntity(new Threat(i, FIRE_RADIUS), p,
                        new Fire(false, (int) CounterRng.range(60, 900, seed, -1 - i, 0, 3, 0)));
            }
        }
        find(world.dominion());
        publish();
    }

    /**
     * Finds the threats' components with Dominion queries ({@code findCompositionsWith}: the
     * components without their entities) and keeps them by threat index, the canonical order:
     * Dominion's own order means nothing. Simulation thread.
     */
    private void find(Dominion dominion) {
        for (Results.With2<Threat, Position> e : dominion.findCompositionsWith(Threat.class, Position.class)) {
            position[e.comp1().index] = e.comp2();
            radius[e.comp1().index] = e.comp1().radius;
        }
        for (Results.With2<Threat, Predator> e : dominion.findCompositionsWith(Threat.class, Predator.class)) {
            predator[e.comp1().index] = e.comp2();
            kind[e.comp1().index] = PREDATOR;
        }
        for (Results.With2<Threat, Fire> e : dominion.findCompositionsWith(Threat.class, Fire.class)) {
            fire[e.comp1().index] = e.comp2();
            kind[e.comp1().index] = FIRE;
        }
        for (int i = 0; i < count; i++) {
            if (position[i] == null || (predator[i] == null) == (fire[i] == null)) {
                throw new IllegalStateException("threat " + i + " is not exactly one predator or fire in " + dominion);
            }
        }
    }

    /**
     * The active threats in index order, packed for the perception kernels: threat j of
     * {@link #activeCount()} is {@code x, y, radius, kind} at {@code 4j .. 4j+3}. Rebuilt from the
     * components at the end of {@link #update} and whenever they are set between ticks; read-only
     * during the parallel phases.
     */
    public float[] packed() {
        return packed;
    }

    /** The per-block candidate lists of {@link #packed()}, rebuilt with it. */
    public ThreatBlocks blocks() {
        return blocks;
    }

    /** Number of active threats in {@link #packed()}. */
    public int activeCount() {
        return activeCount;
    }

    /** Copies the components into the flat arrays the kernels and the viewer read. Simulation thread. */
    private void publish() {
        int j = 0;
        for (int i = 0; i < count; i++) {
            Position p = position[i];
            x[i] = p.x;
            y[i] = p.y;
            active[i] = predator[i] != null || fire[i].burning;
            if (active[i]) {
                packed[j] = p.x;
                packed[j + 1] = p.y;
                packed[j + 2] = radius[i];
                packed[j + 3] = kind[i];
                j += 4;
            }
        }
        activeCount = j / 4;
        blocks.build(packed, activeCount);
    }

    public int count() {
        return count;
    }

    /**
     * Moves predators (a random walk with bounded turns, bouncing off the edges) and counts fires
     * down: an idle fire ignites at a random place when its timer runs out, burns for 20-40 s, then
     * waits 10-30 s. In threat index order; each threat's draws are its own. Returns the highest
     * index of a fire that ignited this tick, or -1. Simulation thread, before the parallel phases.
     */
    int update(long tick, float dt) {
        int ignited = -1;
        for (int i = 0; i < count; i++) {
            int key = -1 - i;
            Position p = position[i];
            Predator q = predator[i];
            if (q != null) {
                q.heading += CounterRng.range(-0.15f, 0.15f, seed, key, tick, 4, 0);
                p.x += (float) Math.cos(q.heading) * PREDATOR_SPEED * dt;
                p.y += (float) Math.sin(q.heading) * PREDATOR_SPEED * dt;
                if (p.x < 0 || p.x > worldSize) {
                    q.heading = (float) Math.PI - q.heading;
                    p.x = Math.max(0, Math.min(worldSize, p.x));
                }
                if (p.y < 0 || p.y > worldSize) {
                    q.heading = -q.heading;
                    p.y = Math.max(0, Math.min(worldSize, p.y));
                }
                continue;
            }
            Fire f = fire[i];
            if (--f.timer <= 0) {
                if (f.burning) {
                    f.burning = false;
                    f.timer = (int) (CounterRng.range(10, 30, seed, key, tick, 5, 0) / dt);
                } else {
                    f.burning = true;
                    p.x = CounterRng.range(100, worldSize - 100, seed, key, tick, 6, 0);
                    p.y = CounterRng.range(100, worldSize - 100, seed, key, tick, 6, 1);
                    f.timer = (int) (CounterRng.range(20, 40, seed, key, tick, 5, 1) / dt);
                    ignited = i;
                }
            }
        }
        publish();
        return ignited;
    }

    /**
     * Puts threat {@code i} at ({@code px}, {@code py}) now; the packed threats show it at once.
     * Tests and tools, on the simulation thread between ticks.
     */
    void place(int i, float px, float py) {
        position[i].x = px;
        position[i].y = py;
        publish();
    }

    /** Snapshot support: threat {@code i}'s heading (0 for a fire). */
    float heading(int i) {
        return predator[i] == null ? 0f : predator[i].heading;
    }

    /** Snapshot support: threat {@code i}'s timer (0 for a predator). */
    int timer(int i) {
        return fire[i] == null ? 0 : fire[i].timer;
    }

    /**
     * Snapshot support: sets threat {@code i}'s state; call {@link #restored()} after the last one.
     * A predator has no timer and is always active; a fire has no heading.
     */
    void restore(int i, float px, float py, float heading, boolean burning, int timer) {
        position[i].x = px;
        position[i].y = py;
        if (predator[i] != null) {
            predator[i].heading = heading;
        } else {
            fire[i].burning = burning;
            fire[i].timer = timer;
        }
    }

    /** After {@link #restore}: the flat arrays follow the components. */
    void restored() {
        publish();
    }

    /** A hash of the threat state, for the world hash: position and activity in index order. */
    long contentHash() {
        long h = 17;
        for (int i = 0; i < count; i++) {
            h = h * 31 + Float.floatToIntBits(position[i].x);
            h = h * 31 + Float.floatToIntBits(position[i].y);
            h = h * 31 + (predator[i] != null || fire[i].burning ? 1 : 0);
        }
        return h;
    }
}
