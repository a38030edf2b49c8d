package dev.crowdtree.examples.guards;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.statetree.model.HostSystem;
import dev.crowdtree.statetree.model.ModelTick;
import dev.crowdtree.statetree.model.SystemBinding;

/**
 * The guards model's {@code sight} system, before the trees: every guard's distance to the
 * intruder, into the {@code distance} column that {@code canSee} reads. A kernel over each chunk
 * of rows on the world's workers; it reads {@code x} and {@code y} and writes {@code distance}, as
 * its spec declares. Allocation: none.
 */
final class SightSystem implements HostSystem {
    private FloatColumn x;
    private FloatColumn y;
    private FloatColumn distance;
    private Intruder intruder;

    @Override
    public void bind(SystemBinding binding) {
        x = binding.floats(GuardNodes.X);
        y = binding.floats(GuardNodes.Y);
        distance = binding.floats(GuardNodes.DISTANCE);
        intruder = binding.external(Intruder.EXTERNAL, Intruder.class);
    }

    @Override
    public void execute(ModelTick tick, Chunk chunk) {
        final float[] gx = x.data();
        final float[] gy = y.data();
        final float[] d = distance.data();
        final float ix = intruder.x();
        final float iy = intruder.y();
        for (int row = chunk.begin(), end = chunk.end(); row < end; row++) {
            float dx = gx[row] - ix;
            float dy = gy[row] - iy;
            d[row] = (float) Math.sqrt(dx * dx + dy * dy);
        }
    }
}
