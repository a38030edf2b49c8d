package dev.crowdtree.examples.guards;

/** Walking a guard in its row of the x and y columns. */
final class Steps {
    /** Within this distance a guard has arrived. */
    static final float ARRIVED = 0.25f;

    private Steps() {
    }

    /**
     * Moves the guard in {@code row} at most {@code step} metres toward ({@code tx}, {@code ty});
     * returns whether it is there.
     */
    static boolean toward(float[] xs, float[] ys, int row, float tx, float ty, float step) {
        float dx = tx - xs[row];
        float dy = ty - ys[row];
        float d = (float) Math.sqrt(dx * dx + dy * dy);
        if (d <= step || d <= ARRIVED) {
            xs[row] = tx;
            ys[row] = ty;
            return true;
        }
        xs[row] += dx / d * step;
        ys[row] += dy / d * step;
        return false;
    }
}
