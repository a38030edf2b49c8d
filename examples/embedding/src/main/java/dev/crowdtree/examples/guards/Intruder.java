package dev.crowdtree.examples.guards;

import dev.crowdtree.core.random.CounterRng;

/**
 * The intruder: one object the whole world shares, so it reaches the guards' nodes as an external
 * ({@value #EXTERNAL}) instead of a copy of its position in a column per guard. Either the host
 * moves it between ticks ({@link #moveTo}, as {@link GuardPost}'s caller does), or it walks its
 * route: across the grounds along the diagonal, {@link #OFFSET} m north of it, at {@link #SPEED} m/s,
 * from 20 m outside to 20 m beyond and over again, starting at a point of the route the run's seed
 * picks ({@link #walk}, called by the guards model's {@code intruder} system every tick). Its position
 * on the route is a function of the tick and the seed alone, so every region of a split world has the
 * same intruder.
 *
 * <p>THREADING: written on the simulation thread between the trees' phases, read by the runtime's
 * workers during them; the executor's hand-over of a phase orders the two.
 */
public final class Intruder {
    /** The name the guards' node types declare it under. */
    public static final String EXTERNAL = "intruder";
    /** Its walking speed on its route, m/s. */
    public static final float SPEED = 5f;
    /** How far north of the diagonal of posts its route runs, between them, in metres. */
    public static final float OFFSET = 7f;

    private float x;
    private float y;
    private boolean onRoute;
    private final float grounds;

    /** An intruder at ({@code x}, {@code y}), moved by the host. */
    public Intruder(float x, float y) {
        this.grounds = 0;
        moveTo(x, y);
    }

    private Intruder(float grounds) {
        this.grounds = grounds;
        this.onRoute = true;
        walk(0, 0.1f, 0);
    }

    /** An intruder on its route across grounds {@code grounds} metres wide (and high). */
    public static Intruder onRoute(float grounds) {
        return new Intruder(grounds);
    }

    /** Moves it (host thread, between ticks); it leaves its route for good. */
    public void moveTo(float x, float y) {
        this.x = x;
        this.y = y;
        this.onRoute = false;
    }

    /** On its route: where it is at tick {@code tick} of {@code dt} seconds of a run with {@code seed}; else nothing. */
    public void walk(long tick, float dt, long seed) {
        if (!onRoute) {
            return;
        }
        double lap = grounds * Math.sqrt(2) + 40;
        double start = CounterRng.uniformDouble(seed, 0, 0, 7, 0) * lap;
        float along = (float) ((start + tick * (double) SPEED * dt) % lap / Math.sqrt(2)) - 20;
        x = along;
        y = along + OFFSET;
    }

    /** Whether it walks its route (not moved by the host). */
    public boolean onRoute() {
        return onRoute;
    }

    public float x() {
        return x;
    }

    public float y() {
        return y;
    }

    /** Snapshot support: puts it where a saved one was. */
    void restore(float x, float y, boolean onRoute) {
        this.x = x;
        this.y = y;
        this.onRoute = onRoute;
    }
}
