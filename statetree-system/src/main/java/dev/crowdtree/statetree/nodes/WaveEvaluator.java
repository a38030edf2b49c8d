package dev.crowdtree.statetree.nodes;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * {@code wave}: output {@code value = offset + amplitude * sin(2 pi (t / period + phase))}, where t
 * is the time since start and phase is a per-agent constant drawn from the agent's stream, so a
 * crowd's values are spread out and thresholds are crossed at different times (about 1% of a
 * crowd crosses a given threshold per tick for period ~ 100 ticks).
 *
 * <p>Per-agent fields: {@code t} and {@code phase} (float).
 */
public final class WaveEvaluator extends Evaluator {
    private final float period;
    private final float amplitude;
    private final float offset;
    private final int valueSlot;
    private final int tSlot;
    private final int phaseSlot;

    public WaveEvaluator(NodeConfig c) {
        super(c);
        this.period = c.floatValue("period");
        this.amplitude = c.floatValue("amplitude");
        this.offset = c.floatValue("offset");
        this.valueSlot = c.field("value");
        this.tSlot = c.field("t");
        this.phaseSlot = c.field("phase");
    }

    @Override
    public void treeStart(NodeContext ctx, int[] rows, int from, int to) {
        final float[] t = ctx.floats(tSlot);
        final float[] phase = ctx.floats(phaseSlot);
        final int[] ids = ctx.agentIds();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            t[r] = 0f;
            phase[r] = CounterRng.uniform(ctx.seed(), ids[r], 0, stream());
        }
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] v = ctx.floats(valueSlot);
        final float[] t = ctx.floats(tSlot);
        final float[] phase = ctx.floats(phaseSlot);
        final float dt = ctx.dt();
        final float w = (float) (2 * Math.PI) / period;
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float time = t[r] + dt;
            t[r] = time;
            v[r] = offset + amplitude * (float) Math.sin(w * time + (float) (2 * Math.PI) * phase[r]);
        }
    }
}
