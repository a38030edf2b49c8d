package dev.crowdtree.examples.guards;

/** Steering a guard: the velocity that takes it toward a point, written in its row of the vx and vy columns. */
final class Steps {
    /** Within this distance a guard has arrived. */
    static final float ARRIVED = 0.25f;

    private Steps() {
    }

    /**
     * Sets the guard in {@code row} walking toward ({@code tx}, {@code ty}) at {@code speed} m/s; the
     * movement system moves it after the trees ({@link GuardsModel}). Within one tick's walk of
     * {@code dt} seconds (or {@link #ARRIVED} metres) of the point, the velocity lands it there this
     * tick, and this returns true: it arrives.
     */
    static boolean toward(float[] xs, float[] ys, float[] vxs, float[] vys, int row, float tx, float ty, float speed,
                          float dt) {
        float dx = tx - xs[row];
        float dy = ty - ys[row];
        float d = (float) Math.sqrt(dx * dx + dy * dy);
        if (d <= speed * dt || d <= ARRIVED) {
            vxs[row] = dx / dt;
            vys[row] = dy / dt;
            return true;
        }
        vxs[row] = dx / d * speed;
        vys[row] = dy / d * speed;
        return false;
    }
}
