package com.example.starter;

import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code eat}: lowers the villager's {@code hunger} by {@code rate} per second and succeeds when it
 * reaches 0 (the villager is full). A batch kernel: one call per group of villagers eating, no
 * allocation, writes only the given rows.
 */
public final class EatTask extends Task {
    private final float rate;
    private final int hunger;

    public EatTask(NodeConfig c) {
        super(c, true); // true: it has a tick
        this.rate = c.floatValue("rate");
        this.hunger = c.column(VillagerNodes.HUNGER); // the handle of the declared column
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] h = ctx.hostFloats(hunger);
        final float bite = rate * ctx.dt();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float left = h[r] - bite;
            if (left <= 0) {
                h[r] = 0;
                ctx.succeed(r);
            } else {
                h[r] = left;
            }
        }
    }
}
