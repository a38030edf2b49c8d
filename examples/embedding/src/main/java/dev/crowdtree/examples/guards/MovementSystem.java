package dev.crowdtree.examples.guards;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.statetree.model.HostSystem;
import dev.crowdtree.statetree.model.ModelTick;
import dev.crowdtree.statetree.model.Neighbourhood;
import dev.crowdtree.statetree.model.SystemBinding;

/**
 * The guards model's {@code movement} system, after the trees: each guard walks where its task
 * chose ({@code vx}, {@code vy}), pushed apart from the other guards within
 * {@link GuardsModel#PERSONAL_SPACE} metres (chasers closing in on the intruder), reading the others'
 * positions as they were at the start of the tick through the {@link Neighbourhood} (in a split world
 * also the neighbouring regions' guards near the border). Per-worker scratch; allocation: none.
 */
final class MovementSystem implements HostSystem {
    /** How hard guards push apart, metres per second per metre of overlap. */
    static final float PUSH = 5f;

    private FloatColumn x;
    private FloatColumn y;
    private FloatColumn vx;
    private FloatColumn vy;
    private Neighbourhood near;
    private int[][] found;

    @Override
    public void bind(SystemBinding binding) {
        x = binding.floats(GuardNodes.X);
        y = binding.floats(GuardNodes.Y);
        vx = binding.floats(GuardNodes.VX);
        vy = binding.floats(GuardNodes.VY);
        near = binding.neighbourhood();
        found = new int[binding.workers()][16];
    }

    @Override
    public void execute(ModelTick tick, Chunk chunk) {
        final float[] gx = x.data();
        final float[] gy = y.data();
        final float[] gvx = vx.data();
        final float[] gvy = vy.data();
        final float[] nx = near.xs();
        final float[] ny = near.ys();
        final int[] ids = near.agents();
        final int[] around = found[chunk.worker()];
        final float space = GuardsModel.PERSONAL_SPACE;
        final float dt = tick.dt();
        for (int row = chunk.begin(), end = chunk.end(); row < end; row++) {
            float px = nx[row];
            float py = ny[row];
            float pushX = 0;
            float pushY = 0;
            for (int k = 0, n = near.near(px, py, space, around); k < n; k++) {
                int e = around[k];
                float dx = px - nx[e];
                float dy = py - ny[e];
                float d = (float) Math.sqrt(dx * dx + dy * dy);
                if (e == row) {
                    continue;
                }
                if (d > 1e-4f) {
                    float overlap = (space - d) / d * PUSH;
                    pushX += dx * overlap;
                    pushY += dy * overlap;
                } else { // on the same spot: the lower id steps west, the other east
                    pushX += (ids[row] < ids[e] ? -space : space) * PUSH;
                }
            }
            gx[row] += (gvx[row] + pushX) * dt;
            gy[row] += (gvy[row] + pushY) * dt;
        }
    }
}
