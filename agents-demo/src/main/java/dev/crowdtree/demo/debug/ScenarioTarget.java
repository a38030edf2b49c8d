package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.ArrayList;
import java.util.List;

/**
 * A scripted scenario as the debugger runs it: tick 0 is the start, ticks 1..{@code ticks} are
 * ticks of {@code dt}, and each tick's inputs are applied just before it, exactly as {@code trace}
 * runs it ({@link ScenarioRunner}), so the debugger shows what the trace says. The world hash is a
 * hash of the runtime's snapshot.
 */
final class ScenarioTarget implements DebugTarget {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Scenario scenario;
    private final CompiledStateTree tree;
    private final StateTreeRuntime runtime;
    /** The inputs of each tick, in the order listed, and as JSON in the scenario's format. */
    private final List<List<Scenario.Input>> inputs = new ArrayList<>();
    private final List<String> inputsJson = new ArrayList<>();
    private long tick = -1;

    /**
     * @param scenarioText the scenario file's text (its inputs are recorded as written)
     * @throws ScenarioException if the scenario does not fit the tree
     */
    ScenarioTarget(Scenario scenario, String scenarioText, CompiledStateTree tree, RuntimeFactory factory)
            throws ScenarioException {
        ScenarioRunner.validate(scenario, tree);
        this.scenario = scenario;
        this.tree = tree;
        for (int k = 0; k <= scenario.ticks(); k++) {
            inputs.add(new ArrayList<>());
            inputsJson.add(null);
        }
        for (Scenario.Input in : scenario.inputs()) {
            inputs.get(in.tick()).add(in);
        }
        List<List<String>> raw = rawInputs(scenarioText, scenario.ticks());
        for (int k = 0; k <= scenario.ticks(); k++) {
            inputsJson.set(k, "[" + String.join(",", raw.get(k)) + "]");
        }
        this.runtime = factory.create(tree, scenario.agents(), scenario.seed(), scenario.workers());
        runtime.setNodeErrorPolicy(scenario.onNodeError());
    }

    /** Each tick's inputs as the scenario file writes them (compact JSON), in the order listed. */
    private static List<List<String>> rawInputs(String text, int ticks) {
        List<List<String>> out = new ArrayList<>();
        for (int k = 0; k <= ticks; k++) {
            out.add(new ArrayList<>());
        }
        try {
            JsonNode list = JSON.readTree(text).path("inputs");
            for (JsonNode in : list) {
                out.get(in.path("tick").asInt()).add(JSON.writeValueAsString(in));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("the scenario's text does not parse: " + e.getMessage(), e);
        }
        return out;
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
        boolean start = k == 0;
        for (Scenario.Input in : inputs.get(k)) {
            start |= ScenarioRunner.apply(runtime, tree, in, k);
        }
        if (start) {
            runtime.startAll(k);
        } else {
            runtime.tickAll(k, scenario.dt());
        }
        tick = k;
        return inputsJson.get(k);
    }

    @Override
    public List<HostEvent> nextEvents() {
        int k = (int) (tick + 1);
        List<HostEvent> out = new ArrayList<>();
        if (k <= scenario.ticks()) {
            for (Scenario.Input in : inputs.get(k)) {
                if (in instanceof Scenario.EventInput) {
                    out.add(new HostEvent(in.agent(), ((Scenario.EventInput) in).tag()));
                }
            }
        }
        return out;
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
