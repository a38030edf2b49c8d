package dev.crowdtree.bench;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.CommandBuffer;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Results;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The simplest per-agent update, {@code pos += vel * dt} in 2D ({@code x, y, vx, vy} floats,
 * {@code dt = 1/30}), over {@code count} agents. One benchmark operation is one full tick over all
 * agents, so the reported time per operation divided by {@code count} is the cost per agent
 * (ns/agent = time per op in ns / count).
 *
 * <p>Variants:
 * <ul>
 *   <li>{@code simCore1Worker}, {@code simCore2Workers}: agents spawned in a sim-core {@link World}
 *       (chunks of 4096 rows) with the four values as {@link FloatColumn}s of one {@link SoaTable};
 *       a tick is one {@link World#runPhase} with a {@link ChunkKernel}, on 1 worker (the calling
 *       thread only) or 2 workers (the caller plus one executor thread). Measures the SoA loop plus
 *       the per-phase and per-chunk overhead of the executor and, for 2 workers, the hand-off.</li>
 *   <li>{@code dominion}: the same agents as Dominion entities with mutable {@code Pos} and
 *       {@code Vel} component objects; a tick runs {@code findEntitiesWith(Pos.class, Vel.class)}
 *       and a plain for-each over the results. Measures an idiomatic object-per-component ECS query
 *       (pointer chasing, iterator and result records).</li>
 *   <li>{@code rawArrays}: four plain {@code float[]} and a single loop on the benchmark thread. The
 *       floor: what the update costs with no engine at all.</li>
 * </ul>
 *
 * <p>Velocities and positions are derived from the agent index, so every run does the same
 * arithmetic. Results are observable because they are written to arrays and objects reachable from
 * JMH state, whose writes JMH cannot eliminate. Nothing here allocates per operation except, perhaps,
 * Dominion's query.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PosVelBenchmark {
    /** Seconds per tick. */
    static final float DT = 1f / 30f;

    /** Initial x of agent {@code i}. */
    static float initialX(int i) {
        return i % 1000;
    }

    /** Initial y of agent {@code i}. */
    static float initialY(int i) {
        return (i / 1000) % 1000;
    }

    /** Velocity x of agent {@code i}, in -2 .. 2. */
    static float initialVx(int i) {
        return ((i % 17) - 8) * 0.25f;
    }

    /** Velocity y of agent {@code i}, in -3 .. 3. */
    static float initialVy(int i) {
        return ((i % 13) - 6) * 0.5f;
    }

    /** A sim-core world holding {@code count} agents with x, y, vx, vy columns. */
    abstract static class SimCoreState {
        World world;
        SoaTable table;
        PosVelKernel kernel;

        void open(int workers, int count) {
            world = World.builder()
                    .workers(workers)
                    .chunkSize(4096)
                    .maxAgents(count + 16)
                    .initialCapacity(count)
                    .dt(DT)
                    .build();
            table = world.createTable("agents");
            FloatColumn x = table.addFloat("x");
            FloatColumn y = table.addFloat("y");
            FloatColumn vx = table.addFloat("vx");
            FloatColumn vy = table.addFloat("vy");
            SpawnInitializer init = new PosVelInit(x, y, vx, vy);
            CommandBuffer commands = world.commands();
            for (int i = 0; i < count; i++) {
                commands.spawn(table, init, i);
            }
            world.sync();
            if (world.agentCount() != count || table.size() != count) {
                throw new IllegalStateException("spawned " + world.agentCount() + " agents, "
                        + table.size() + " rows; expected " + count);
            }
            kernel = new PosVelKernel(x, y, vx, vy, DT);
        }

        void close() {
            if (world != null) {
                world.close();
                world = null;
            }
        }
    }

    /** A sim-core world ticked by 1 worker (the benchmark thread). */
    @State(Scope.Benchmark)
    public static class SimCore1 extends SimCoreState {
        @Param({"10000", "100000", "1000000"})
        public int count;

        @Setup(Level.Trial)
        public void setUp() {
            open(1, count);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    /** A sim-core world ticked by 2 workers (the benchmark thread plus one executor thread). */
    @State(Scope.Benchmark)
    public static class SimCore2 extends SimCoreState {
        @Param({"10000", "100000", "1000000"})
        public int count;

        @Setup(Level.Trial)
        public void setUp() {
            open(2, count);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    /** Fills a spawned row from the agent index passed as the spawn argument. */
    static final class PosVelInit implements SpawnInitializer {
        private final FloatColumn x;
        private final FloatColumn y;
        private final FloatColumn vx;
        private final FloatColumn vy;

        PosVelInit(FloatColumn x, FloatColumn y, FloatColumn vx, FloatColumn vy) {
            this.x = x;
            this.y = y;
            this.vx = vx;
            this.vy = vy;
        }

        @Override
        public void initialize(SoaTable table, int row, int agentId, long arg) {
            int i = (int) arg;
            x.set(row, initialX(i));
            y.set(row, initialY(i));
            vx.set(row, initialVx(i));
            vy.set(row, initialVy(i));
        }
    }

    /** {@code pos += vel * dt} over the rows of one chunk. */
    static final class PosVelKernel implements ChunkKernel {
        private final FloatColumn x;
        private final FloatColumn y;
        private final FloatColumn vx;
        private final FloatColumn vy;
        private final float dt;

        PosVelKernel(FloatColumn x, FloatColumn y, FloatColumn vx, FloatColumn vy, float dt) {
            this.x = x;
            this.y = y;
            this.vx = vx;
            this.vy = vy;
            this.dt = dt;
        }

        @Override
        public void execute(Chunk c) {
            final float[] px = x.data();
            final float[] py = y.data();
            final float[] pvx = vx.data();
            final float[] pvy = vy.data();
            final float d = dt;
            for (int r = c.begin(); r < c.end(); r++) {
                px[r] += pvx[r] * d;
                py[r] += pvy[r] * d;
            }
        }
    }

    /** Dominion position component. */
    public static final class Pos {
        float x;
        float y;

        Pos(float x, float y) {
            this.x = x;
            this.y = y;
        }
    }

    /** Dominion velocity component. */
    public static final class Vel {
        float x;
        float y;

        Vel(float x, float y) {
            this.x = x;
            this.y = y;
        }
    }

    /** {@code count} Dominion entities with a {@link Pos} and a {@link Vel}. */
    @State(Scope.Benchmark)
    public static class DominionState {
        @Param({"10000", "100000", "1000000"})
        public int count;

        Dominion dominion;

        @Setup(Level.Trial)
        public void setUp() {
            System.setProperty("dominion.show-banner", "false");
            System.setProperty("dominion.logging-level", "WARNING");
            dominion = Dominion.create();
            for (int i = 0; i < count; i++) {
                dominion.createEntity(new Pos(initialX(i), initialY(i)), new Vel(initialVx(i), initialVy(i)));
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            if (dominion != null) {
                dominion.close();
                dominion = null;
            }
        }
    }

    /** Four plain arrays of {@code count} floats. */
    @State(Scope.Benchmark)
    public static class ArrayState {
        @Param({"10000", "100000", "1000000"})
        public int count;

        float[] x;
        float[] y;
        float[] vx;
        float[] vy;

        @Setup(Level.Trial)
        public void setUp() {
            x = new float[count];
            y = new float[count];
            vx = new float[count];
            vy = new float[count];
            for (int i = 0; i < count; i++) {
                x[i] = initialX(i);
                y[i] = initialY(i);
                vx[i] = initialVx(i);
                vy[i] = initialVy(i);
            }
        }
    }

    /** One tick on a world with 1 worker. */
    @Benchmark
    public void simCore1Worker(SimCore1 s) {
        s.world.runPhase(s.table, s.kernel);
    }

    /** One tick on a world with 2 workers. */
    @Benchmark
    public void simCore2Workers(SimCore2 s) {
        s.world.runPhase(s.table, s.kernel);
    }

    /** One tick as a Dominion query with a for-each over its results. */
    @Benchmark
    public void dominion(DominionState s) {
        final float d = DT;
        for (Results.With2<Pos, Vel> e : s.dominion.findEntitiesWith(Pos.class, Vel.class)) {
            Pos p = e.comp1();
            Vel v = e.comp2();
            p.x += v.x * d;
            p.y += v.y * d;
        }
    }

    /** One tick over four plain arrays: the floor. */
    @Benchmark
    public void rawArrays(ArrayState s) {
        final float[] px = s.x;
        final float[] py = s.y;
        final float[] pvx = s.vx;
        final float[] pvy = s.vy;
        final float d = DT;
        for (int i = 0, n = px.length; i < n; i++) {
            px[i] += pvx[i] * d;
            py[i] += pvy[i] * d;
        }
    }
}
