package dev.crowdtree.examples.guards;

/**
 * The intruder: one object the whole world shares, so the host binds it to the runtime as an
 * external ({@code brains.bindExternal("intruder", intruder)}) instead of copying its position into
 * a column per guard. The host moves it between ticks; the guards' kernels read it during a tick.
 *
 * <p>THREADING: written by the host's thread between ticks, read by the runtime's workers during a
 * tick; the runtime's start of a tick orders the two (the workers are handed the tick after the
 * host's writes).
 */
public final class Intruder {
    /** The name the guards' node types declare it under. */
    public static final String EXTERNAL = "intruder";

    private float x;
    private float y;

    /** An intruder at ({@code x}, {@code y}). */
    public Intruder(float x, float y) {
        moveTo(x, y);
    }

    /** Moves it (host thread, between ticks). */
    public void moveTo(float x, float y) {
        this.x = x;
        this.y = y;
    }

    public float x() {
        return x;
    }

    public float y() {
        return y;
    }
}
