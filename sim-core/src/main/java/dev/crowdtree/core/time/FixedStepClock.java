package dev.crowdtree.core.time;

import dev.crowdtree.core.util.Checks;

/**
 * A fixed-step simulation clock: every step advances time by exactly {@link #dt()} seconds, so a
 * run is reproducible whatever the wall clock does. {@link #stepsFor(double, int)} converts real
 * elapsed time into a number of steps with an accumulator, for real-time loops (the live viewer);
 * headless runs just call {@link #advance()} once per tick.
 *
 * <p>THREADING: simulation thread only.
 */
public final class FixedStepClock {
    private final float dt;
    private long tick;
    private double accumulator;

    /** @param dt seconds per step, finite and greater than 0 */
    public FixedStepClock(float dt) {
        this.dt = Checks.positiveFinite("dt", dt);
    }

    /** Seconds per step. */
    public float dt() {
        return dt;
    }

    /** Steps taken so far. */
    public long tick() {
        return tick;
    }

    /** Simulated seconds so far ({@code tick * dt}). */
    public double time() {
        return tick * (double) dt;
    }

    /** Advances one step and returns the new tick number. */
    /** Sets the tick count (restoring a snapshot); the real-time accumulator starts over. */
    public void restoreTick(long tickNumber) {
        if (tickNumber < 0) {
            throw new IllegalArgumentException("tick = " + tickNumber + " is out of range; valid range is 0..");
        }
        tick = tickNumber;
        accumulator = 0;
    }

    public long advance() {
        return ++tick;
    }

    /**
     * Adds {@code realSeconds} of wall time and returns how many whole steps are due, at most
     * {@code maxSteps}; the remainder carries over, except that time beyond {@code maxSteps} steps
     * is dropped so a stalled process does not try to catch up forever.
     */
    public int stepsFor(double realSeconds, int maxSteps) {
        if (!(realSeconds >= 0) || Double.isInfinite(realSeconds)) {
            throw new IllegalArgumentException("realSeconds = " + realSeconds
                    + " is not valid; it must be a finite number >= 0");
        }
        Checks.inRange("maxSteps", maxSteps, 1, Integer.MAX_VALUE);
        accumulator += realSeconds;
        long due = (long) Math.floor(accumulator / dt);
        int steps = (int) Math.min(due, maxSteps);
        accumulator = steps == due ? accumulator - steps * (double) dt : 0;
        return steps;
    }
}
