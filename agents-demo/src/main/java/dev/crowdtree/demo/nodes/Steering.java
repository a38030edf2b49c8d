package dev.crowdtree.demo.nodes;

/** Steering shared by the movement tasks. */
final class Steering {
    private Steering() {
    }

    /**
     * Sets row {@code r}'s desired velocity toward an offset (dx, dy) at {@code speed}, slowing
     * down inside the last metre, and returns the distance.
     */
    static float toward(float dx, float dy, float speed, float[] desiredVx, float[] desiredVy, int r) {
        float d = (float) Math.sqrt(dx * dx + dy * dy);
        float s = d > 1e-4f ? speed * Math.min(1f, d) / d : 0f;
        desiredVx[r] = dx * s;
        desiredVy[r] = dy * s;
        return d;
    }
}
