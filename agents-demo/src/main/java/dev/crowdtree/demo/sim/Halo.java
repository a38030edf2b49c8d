package dev.crowdtree.demo.sim;

import java.util.Arrays;

/**
 * Region mode: the neighbouring regions' agents a region sees this tick (read-only copies as of the
 * end of the last tick): id, position, danger flag and owning region, in the order received.
 * Filled by {@link Region} before the tick, appended to the grid by {@link CrowdSim}.
 */
final class Halo {
    int count;
    int[] id = new int[64];
    float[] x = new float[64];
    float[] y = new float[64];
    byte[] danger = new byte[64];
    int[] owner = new int[64];

    void clear() {
        count = 0;
    }

    void add(int agent, float px, float py, byte d, int ownerRegion) {
        if (count == id.length) {
            int n = count * 2;
            id = Arrays.copyOf(id, n);
            x = Arrays.copyOf(x, n);
            y = Arrays.copyOf(y, n);
            danger = Arrays.copyOf(danger, n);
            owner = Arrays.copyOf(owner, n);
        }
        id[count] = agent;
        x[count] = px;
        y[count] = py;
        danger[count] = d;
        owner[count] = ownerRegion;
        count++;
    }
}
