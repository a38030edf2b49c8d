package dev.crowdtree.demo.debug;

import dev.crowdtree.core.util.Hashes;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.reference.RuntimeFactory;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioException;
import dev.crowdtree.statetree.reference.ScenarioRunner;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * A scripted scenario as the debugger runs it: tick 0 is the start, ticks 1..{@code ticks} are
 * ticks of {@code dt}, and each tick's inputs are applied just before it, exactly as {@code trace}
 * runs it ({@link ScenarioRunner}), so the debugger shows what the trace says. The world hash is a
 * hash of the runtime's snapshot.
 */
final class ScenarioTarget implements DebugTarget {
    private final Scenario scenario;
    private final CompiledStateTree tree;
    private final StateTreeRuntime runtime;
    /** The inputs of each tick, in the order listed, and as JSON in the scenario's format. */
    private final ScenarioInputs inputs;
    private final RuntimeFactory factory;
    private long tick = -1;

    /**
     * @param scenarioText the scenario file's text (its inputs are recorded as written)
     * @throws ScenarioException if the scenario does not fit the tree
     */
    ScenarioTarget(Scenario scenario, String scenarioText, CompiledStateTree tree, RuntimeFactory factory)
            throws ScenarioException {
        this(validated(scenario, tree), new ScenarioInputs(scenario, scenarioText), tree, factory);
    }

    private ScenarioTarget(Scenario scenario, ScenarioInputs inputs, CompiledStateTree tree, RuntimeFactory factory) {
        this.scenario = scenario;
        this.tree = tree;
        this.inputs = inputs;
        this.factory = factory;
        this.runtime = factory.create(tree, scenario.agents(), scenario.seed(), scenario.workers());
        runtime.setNodeErrorPolicy(scenario.onNodeError());
    }

    private static Scenario validated(Scenario scenario, CompiledStateTree tree) throws ScenarioException {
        ScenarioRunner.validate(scenario, tree);
        return scenario;
    }

    /**
     * A new runtime of the same scenario, tree and node types, restored from the snapshot (the
     * scenario, its inputs, the compiled tree and the factory are immutable, so any thread may copy).
     */
    @Override
    public Copier copier() {
        return (snapshot, tick) -> {
            ScenarioTarget copy = new ScenarioTarget(scenario, inputs, tree, factory);
            try {
                copy.restore(snapshot, tick);
            } catch (IOException | RuntimeException e) {
                copy.close();
                throw e;
            }
            return copy;
        };
    }

    Scenario scenario() {
        return scenario;
    }

    @Override
    public StateTreeRuntime runtime() {
        return runtime;
    }

    @Override
    public long tick() {
        return tick;
    }

    @Override
    public long lastTick() {
        return scenario.ticks();
    }

    @Override
    public String step() {
        int k = (int) (tick + 1);
        if (k > scenario.ticks()) {
            throw new IllegalStateException("the scenario ends at tick " + scenario.ticks());
        }
        boolean start = inputs.apply(runtime, tree, k) || k == 0;
        if (start) {
            runtime.startAll(k);
        } else {
            runtime.tickAll(k, scenario.dt());
        }
        tick = k;
        return inputs.json(k);
    }

    @Override
    public List<HostEvent> nextEvents() {
        return inputs.events((int) (tick + 1));
    }

    @Override
    public boolean canSnapshot() {
        return true;
    }

    @Override
    public byte[] snapshot() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        runtime.snapshot(out);
        return out.toByteArray();
    }

    @Override
    public void restore(byte[] snapshot, long tick) throws IOException {
        runtime.restore(new ByteArrayInputStream(snapshot));
        this.tick = tick;
    }

    @Override
    public long worldHash() throws IOException {
        return worldHash(snapshot());
    }

    @Override
    public long worldHash(byte[] snapshot) {
        return Hashes.fnv1a64(snapshot);
    }

    @Override
    public String describe() {
        return String.format(java.util.Locale.ROOT, "scenario %s: %,d agents, ticks 0..%d of %s s, seed %d, tree %s",
                scenario.source(), scenario.agents(), scenario.ticks(), scenario.dt(), scenario.seed(), tree.name);
    }

    @Override
    public void close() {
        runtime.close();
    }
}
