package dev.crowdtree.demo.sim;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.statetree.exec.StateTreeSystem;

/**
 * Movement phase: steer toward the desired velocity the tasks set (then clear it, except for
 * agents whose LOD period is above 1: they walk on between their StateTree steps), push away
 * from up to {@value #MATES} cell mates closer than {@value #RADIUS} m
 * (positions from the snapshot), integrate, bounce off the world's edges, and record whether
 * the agent is in danger for the next tick's perception.
 */
final class MovementKernel implements ChunkKernel {
    private static final float RADIUS = 0.8f;
    private static final int MATES = 8;
    /** The bits of the smallest distance^2 that pushes (1e-8 m^2: not the agent itself), plus one. */
    private static final int NEAR_BITS = Float.floatToRawIntBits(1e-8f) + 1;
    /** How many float bit patterns lie strictly between 1e-8 and RADIUS^2. */
    private static final int BAND = Float.floatToRawIntBits(RADIUS * RADIUS) - NEAR_BITS;

    private final CrowdConfig config;
    private final CrowdData data;
    private final StateTreeSystem system;
    private final int dangerBegin;
    private final int dangerEnd;

    MovementKernel(CrowdConfig config, CrowdData data, StateTreeSystem system, int dangerBegin, int dangerEnd) {
        this.config = config;
        this.data = data;
        this.system = system;
        this.dangerBegin = dangerBegin;
        this.dangerEnd = dangerEnd;
    }

    @Override
    public void execute(Chunk c) {
        final float dt = config.dt();
        final float size = config.worldSize();
        final float follow = Math.min(1f, 6f * dt);
        final float[] x = data.x.data();
        final float[] y = data.y.data();
        final float[] vx = data.vx.data();
        final float[] vy = data.vy.data();
        final float[] dvx = data.desiredVx.data();
        final float[] dvy = data.desiredVy.data();
        final float[] sx = data.snapX.data();
        final float[] sy = data.snapY.data();
        final int[] cell = data.cell.data();
        final int[] start = data.cellStart;
        final int[] rows = data.cellRows;
        final byte[] danger = data.danger.data();
        final byte[] band = data.lodBand == null ? null : data.lodBand.data();
        final byte[] clears = data.clearsEveryTick;
        for (int r = c.begin(), e = c.end(); r < e; r++) {
            float nvx = vx[r] + (dvx[r] - vx[r]) * follow;
            float nvy = vy[r] + (dvy[r] - vy[r]) * follow;
            if (band == null || clears[band[r]] != 0) {
                dvx[r] = 0f;
                dvy[r] = 0f;
            }
            float px = sx[r];
            float py = sy[r];
            float pushX = 0f;
            float pushY = 0f;
            int cl = cell[r];
            for (int k = start[cl], end = Math.min(start[cl + 1], k + MATES + 1); k < end; k++) {
                int o = rows[k];
                float dx = px - sx[o];
                float dy = py - sy[o];
                float d2 = dx * dx + dy * dy;
                // 1e-8 < d2 < RADIUS^2 as one unsigned compare of the bits (d2 is never negative): the
                // agent itself (d2 = 0) falls out with the far ones, without a branch of its own
                if (Integer.compareUnsigned(Float.floatToRawIntBits(d2) - NEAR_BITS, BAND) < 0) {
                    float d = (float) Math.sqrt(d2);
                    float push = (RADIUS - d) / d;
                    pushX += dx * push;
                    pushY += dy * push;
                }
            }
            nvx += pushX * 2f;
            nvy += pushY * 2f;
            float nx = x[r] + nvx * dt;
            float ny = y[r] + nvy * dt;
            if (nx < 0f || nx > size) {
                nvx = -nvx;
                nx = Math.max(0f, Math.min(size, nx));
            }
            if (ny < 0f || ny > size) {
                nvy = -nvy;
                ny = Math.max(0f, Math.min(size, ny));
            }
            x[r] = nx;
            y[r] = ny;
            vx[r] = nvx;
            vy[r] = nvy;
            int s = system.activeStateOfRow(r);
            danger[r] = (byte) (s >= dangerBegin && s < dangerEnd ? 1 : 0);
        }
    }

    @Override
    public String kernelName() {
        return "movement";
    }
}
