package dev.crowdtree.demo.nodes;

/** Small helpers shared by the movement tasks. */
final class Steering {
    private Steering() {
    }

    /**
     * The factor that turns an offset of length {@code d} into a velocity of {@code speed},
     * slowing down inside the last metre (0 for a zero offset).
     */
    static float scale(float d, float speed) {
        return d > 1e-4f ? speed * Math.min(1f, d) / d : 0f;
    }
}
