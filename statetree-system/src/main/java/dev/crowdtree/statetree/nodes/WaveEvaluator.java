package dev.crowdtree.statetree.nodes;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;

/**
 * {@code wave}: output {@code value = offset + amplitude * w(t / period + phase)}, where t is the
 * time since start, phase is a per-agent constant drawn from the agent's stream (so a crowd's
 * values are spread out and thresholds are crossed at different times), and {@code w} is a sine
 * ({@code shape: "sine"}, default) or a triangle wave with the same range and period
 * ({@code shape: "triangle"}, no trigonometry: cheap for benchmarks of the framework itself).
 *
 * <p>Per-agent fields: {@code t} and {@code phase} (float).
 */
public final class WaveEvaluator extends Evaluator {
    private final float period;
    private final float amplitude;
    private final float offset;
    private final boolean triangle;
    private final int valueSlot;
    private final int tSlot;
    private final int phaseSlot;

    public WaveEvaluator(NodeConfig c) {
        super(c);
        this.period = c.floatValue("period");
        this.amplitude = c.floatValue("amplitude");
        this.offset = c.floatValue("offset");
        this.triangle = c.string("shape").equals("triangle");
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

    /**
     * The triangle in [-1, 1] of {@code x >= 0}, period 1: {@code 4 * |x - round(x)| - 1}. No branch
     * (with random phases one would mispredict for half of the agents), no conversion (which would
     * stop the JIT from vectorizing the range loop).
     */
    static float triangle(float x) {
        float y = x - ((x + 0x1.8p23f) - 0x1.8p23f);
        return 4f * Math.abs(y) - 1f;
    }

    @Override
    public void tickRange(NodeContext ctx, int rowFrom, int rowTo) {
        final float[] v = ctx.floats(valueSlot);
        final float[] t = ctx.floats(tSlot);
        final float[] phase = ctx.floats(phaseSlot);
        final float dt = ctx.dt();
        if (!triangle) {
            final float w = (float) (2 * Math.PI) / period;
            for (int r = rowFrom; r < rowTo; r++) {
                float time = t[r] + dt;
                t[r] = time;
                v[r] = offset + amplitude * (float) Math.sin(w * time + (float) (2 * Math.PI) * phase[r]);
            }
            return;
        }
        final float inv = 1f / period;
        final float off = offset;
        final float amp = amplitude;
        for (int r = rowFrom; r < rowTo; r++) {
            float time = t[r] + dt;
            t[r] = time;
            v[r] = off + amp * triangle(time * inv + phase[r] + 0.25f);
        }
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final float[] v = ctx.floats(valueSlot);
        final float[] t = ctx.floats(tSlot);
        final float[] phase = ctx.floats(phaseSlot);
        final float dt = ctx.dt();
        if (triangle) {
            final float inv = 1f / period;
            for (int i = from; i < to; i++) {
                int r = rows[i];
                float time = t[r] + dt;
                t[r] = time;
                // +1/4 so it starts in phase with the sine
                v[r] = offset + amplitude * triangle(time * inv + phase[r] + 0.25f);
            }
            return;
        }
        final float w = (float) (2 * Math.PI) / period;
        for (int i = from; i < to; i++) {
            int r = rows[i];
            float time = t[r] + dt;
            t[r] = time;
            v[r] = offset + amplitude * (float) Math.sin(w * time + (float) (2 * Math.PI) * phase[r]);
        }
    }
}
