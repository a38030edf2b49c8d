package dev.crowdtree.statetree.model;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueType;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;
import static dev.crowdtree.statetree.node.HostColumn.Type.INT;

/**
 * A small model for the tests: walkers in a 100 x 100 field. Before the trees, {@code sense}
 * counts each walker's neighbours within the reach (4) into {@code crowded}; the tree walks east
 * ({@code heading} writes the velocity) until a walker is crowded, then walks north; after the trees,
 * {@code move} integrates the velocity with a push away from the nearest neighbour and wraps at the
 * field's edges, and counts the ticks it ran (its own state, saved in snapshots).
 */
final class Walkers implements SimulationModel {
    static final String TREE = """
            {"name": "Walk", "root": {"name": "Root", "children": [
              {"name": "East", "tasks": [{"type": "heading", "vx": 1, "vy": 0}],
               "transitions": [{"trigger": "onTick", "to": "Root/North",
                                "conditions": [{"type": "crowdedAtLeast", "count": 3}]}]},
              {"name": "North", "tasks": [{"type": "heading", "vx": 0, "vy": 1}, {"type": "delay", "duration": 0.5}],
               "transitions": [{"trigger": "onStateCompleted", "to": "Root/East"}]}
            ]}}
            """;

    @Override
    public ModelDefinition define() {
        return ModelDefinition.builder("walkers")
                .agents(500).dt(0.1f)
                .column("x", FLOAT, ColumnInit.uniform(0, 100, 11))
                .column("y", FLOAT, ColumnInit.uniform(0, 100, 12))
                .column("vx", FLOAT, 0)
                .column("vy", FLOAT, 0)
                .column("crowded", INT, 0)
                .column("spawnedAs", INT, (seed, id, index) -> index)
                .positions("x", "y", 100, 100).reach(4).shared("vx")
                .tree("walk.json", () -> TREE)
                .nodes(new Nodes())
                .before(HostSystemSpec.named("sense").reads("x", "y").writes("crowded").factory(Sense::new))
                .after(HostSystemSpec.named("move").reads("vx", "vy").writes("x", "y").factory(Move::new))
                .build();
    }

    static final class Nodes implements NodeProvider {
        @Override
        public void register(NodeRegistry r) {
            r.register(NodeType.task("heading")
                    .constant("vx", ValueType.FLOAT, p -> p.required())
                    .constant("vy", ValueType.FLOAT, p -> p.required())
                    .writes("vx", FLOAT).writes("vy", FLOAT)
                    .factory(Heading::new).build());
            r.register(NodeType.condition("crowdedAtLeast")
                    .constant("count", ValueType.INT, p -> p.required())
                    .reads("crowded", INT)
                    .factory(CrowdedAtLeast::new).build());
        }
    }

    static final class Heading extends Task {
        private final float vx;
        private final float vy;
        private final int cx;
        private final int cy;

        Heading(NodeConfig c) {
            super(c, false);
            vx = c.floatValue("vx");
            vy = c.floatValue("vy");
            cx = c.column("vx");
            cy = c.column("vy");
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            ctx.hostFloats(cx)[row] = vx;
            ctx.hostFloats(cy)[row] = vy;
            return RunStatus.RUNNING;
        }
    }

    static final class CrowdedAtLeast extends Condition {
        private final int count;
        private final int column;

        CrowdedAtLeast(NodeConfig c) {
            super(c);
            count = c.intValue("count");
            column = c.column("crowded");
        }

        @Override
        public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
            int[] v = ctx.hostInts(column);
            for (int i = from; i < to; i++) {
                out[i] = v[rows[i]] >= count;
            }
        }
    }

    /** Neighbours within the reach, the agent itself not counted. */
    static final class Sense implements HostSystem {
        private FloatColumn x;
        private FloatColumn y;
        private IntColumn crowded;
        private Neighbourhood near;
        private int[][] scratch;

        @Override
        public void bind(SystemBinding b) {
            x = b.floats("x");
            y = b.floats("y");
            crowded = b.ints("crowded");
            near = b.neighbourhood();
            scratch = new int[b.workers()][64];
        }

        @Override
        public void execute(ModelTick tick, Chunk chunk) {
            float[] xs = x.data();
            float[] ys = y.data();
            int[] out = crowded.data();
            int[] found = scratch[chunk.worker()];
            for (int r = chunk.begin(); r < chunk.end(); r++) {
                out[r] = near.near(xs[r], ys[r], near.reach(), found) - 1;
            }
        }
    }

    /** Velocity plus a push away from the nearest other walker, wrapped at the edges; counts its ticks. */
    static final class Move implements HostSystem {
        private FloatColumn x;
        private FloatColumn y;
        private FloatColumn vx;
        private FloatColumn vy;
        private Neighbourhood near;
        private int[][] scratch;
        private long ticks;

        @Override
        public void bind(SystemBinding b) {
            x = b.floats("x");
            y = b.floats("y");
            vx = b.floats("vx");
            vy = b.floats("vy");
            near = b.neighbourhood();
            scratch = new int[b.workers()][64];
        }

        @Override
        public void execute(ModelTick tick, Chunk chunk) {
            float[] xs = x.data();
            float[] ys = y.data();
            float[] vxs = vx.data();
            float[] vys = vy.data();
            float[] nx = near.xs();
            float[] ny = near.ys();
            float[] nvx = near.sharedFloats("vx");
            int[] found = scratch[chunk.worker()];
            float dt = tick.dt();
            for (int r = chunk.begin(); r < chunk.end(); r++) {
                float px = nx[r];
                float py = ny[r];
                int n = near.near(px, py, 2, found);
                float pushX = 0;
                float pushY = 0;
                for (int k = 0; k < n; k++) {
                    int e = found[k];
                    if (e != r) {
                        pushX += (px - nx[e]) * 0.1f + nvx[e] * 0.01f;
                        pushY += (py - ny[e]) * 0.1f;
                    }
                }
                xs[r] = wrap(xs[r] + (vxs[r] + pushX) * dt);
                ys[r] = wrap(ys[r] + (vys[r] + pushY) * dt);
            }
        }

        @Override
        public void endTick(ModelTick tick) {
            ticks++;
        }

        private static float wrap(float v) {
            return v < 0 ? v + 100 : v >= 100 ? v - 100 : v;
        }

        @Override
        public void save(DataOutputStream out) throws IOException {
            out.writeLong(ticks);
        }

        @Override
        public void restore(DataInputStream in) throws IOException {
            ticks = in.readLong();
        }

        @Override
        public long stateHash() {
            return ticks;
        }
    }
}
