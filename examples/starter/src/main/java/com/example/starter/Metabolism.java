package com.example.starter;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.statetree.model.HostSystem;
import dev.crowdtree.statetree.model.ModelTick;
import dev.crowdtree.statetree.model.SystemBinding;

/**
 * The model's {@code metabolism} system, after the trees: every villager gets hungrier by
 * {@link VillagersModel#HUNGER_PER_SECOND} per second. A kernel over each chunk of rows on the
 * world's workers; allocation: none.
 */
final class Metabolism implements HostSystem {
    private FloatColumn hunger;

    @Override
    public void bind(SystemBinding binding) {
        hunger = binding.floats(VillagerNodes.HUNGER);
    }

    @Override
    public void execute(ModelTick tick, Chunk chunk) {
        final float[] h = hunger.data(); // once per call: a table's arrays are replaced when it grows
        final float more = VillagersModel.HUNGER_PER_SECOND * tick.dt();
        for (int row = chunk.begin(), end = chunk.end(); row < end; row++) {
            h[row] += more;
        }
    }
}
