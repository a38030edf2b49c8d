package dev.crowdtree.bench;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
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
 * A steady tick of the benchmark crowd tree ({@link CrowdTrees#crowd()}: 3 levels, 13 states, one
 * evaluator, 1-2 tasks per state, OnTick and completion transitions, about 1% of agents
 * transitioning per tick at 30 Hz) over {@code agents} agents. One operation is one tick of every
 * agent, so ns per agent-tick = time per op / agents.
 *
 * <ul>
 *   <li>{@code batched1}, {@code batched2}: {@link StateTreeSystem} with 1 and 2 workers, chunks of 4096.</li>
 *   <li>{@code reference}: the per-agent {@link ReferenceInterpreter} (Unreal's one context per agent).</li>
 * </ul>
 * Each state is warmed up for 300 ticks (10 s of simulated time) after start so the population is
 * spread over the states before measuring.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class StateTreeTickBenchmark {
    static final float DT = 1f / 30f;

    static CompiledStateTree crowdTree() {
        try {
            return StateTreeCompiler.withBuiltins().compile(CrowdTrees.crowd());
        } catch (StateTreeCompileException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Common state: a runtime, started and warmed up. */
    @State(Scope.Benchmark)
    public abstract static class Base {
        @Param({"100000", "1000000"})
        public int agents;
        StateTreeRuntime runtime;
        long tick;

        abstract StateTreeRuntime create(CompiledStateTree tree, int n);

        @Setup(Level.Trial)
        public void setUp() {
            runtime = create(crowdTree(), agents);
            runtime.startAll(0);
            for (tick = 1; tick <= 300; tick++) {
                runtime.tickAll(tick, DT);
            }
        }

        void step() {
            runtime.tickAll(tick++, DT);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            runtime.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Batched1 extends Base {
        @Override
        StateTreeRuntime create(CompiledStateTree tree, int n) {
            return StateTreeSystem.standalone(tree, n, 1, 1, 4096);
        }
    }

    @State(Scope.Benchmark)
    public static class Batched2 extends Base {
        @Override
        StateTreeRuntime create(CompiledStateTree tree, int n) {
            return StateTreeSystem.standalone(tree, n, 1, 2, 4096);
        }
    }

    @State(Scope.Benchmark)
    public static class Reference extends Base {
        @Override
        StateTreeRuntime create(CompiledStateTree tree, int n) {
            return new ReferenceInterpreter(tree, n, 1);
        }
    }

    @Benchmark
    public void batched1(Batched1 s) {
        s.step();
    }

    @Benchmark
    public void batched2(Batched2 s) {
        s.step();
    }

    @Benchmark
    public void reference(Reference s) {
        s.step();
    }
}
