package dev.crowdtree.demo.sim;

/**
 * What the viewer and the frames draw of a world besides its agents: the crowd's threats
 * (position, radius, kind, whether active) and smart objects (position, slots in use); none for
 * other models ({@link #NONE}). The arrays are the simulation's own, read between ticks; do not
 * modify them.
 */
public record Scene(int threats, float[] threatX, float[] threatY, float[] threatRadius, byte[] threatKind,
                    boolean[] threatActive, int objects, float[] objectX, float[] objectY, int[] objectUsed, int slots) {
    /** A world with nothing but agents. */
    public static final Scene NONE = new Scene(0, new float[0], new float[0], new float[0], new byte[0], new boolean[0],
            0, new float[0], new float[0], new int[0], 0);
}
