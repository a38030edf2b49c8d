package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioRunner;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's inputs by tick, applied as {@code trace} applies them ({@link ScenarioRunner#apply}),
 * with each tick's inputs as the scenario file writes them (compact JSON, for recordings) and the
 * events the host sends next (for the debugger's page). Shared by a scenario run alone
 * ({@link ScenarioTarget}) and a scenario run in a model's world ({@link SimTarget}).
 */
final class ScenarioInputs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Scenario scenario;
    private final List<List<Scenario.Input>> inputs = new ArrayList<>();
    private final List<String> inputsJson = new ArrayList<>();

    /** @param scenarioText the scenario file's text (its inputs are recorded as written) */
    ScenarioInputs(Scenario scenario, String scenarioText) {
        this.scenario = scenario;
        for (int k = 0; k <= scenario.ticks(); k++) {
            inputs.add(new ArrayList<>());
        }
        for (Scenario.Input in : scenario.inputs()) {
            inputs.get(in.tick()).add(in);
        }
        List<List<String>> raw = rawInputs(scenarioText, scenario.ticks());
        for (int k = 0; k <= scenario.ticks(); k++) {
            inputsJson.add("[" + String.join(",", raw.get(k)) + "]");
        }
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

    /** Applies tick {@code k}'s inputs to {@code runtime}; whether one of them asks for a (re)start. */
    boolean apply(StateTreeRuntime runtime, CompiledStateTree tree, int k) {
        boolean start = false;
        for (Scenario.Input in : inputs.get(k)) {
            start |= ScenarioRunner.apply(runtime, tree, in, k);
        }
        return start;
    }

    /** Tick {@code k}'s inputs as JSON, {@code []} for none. */
    String json(int k) {
        return inputsJson.get(k);
    }

    /** The events the host sends in tick {@code k} (none past the scenario's end). */
    List<DebugTarget.HostEvent> events(int k) {
        List<DebugTarget.HostEvent> out = new ArrayList<>();
        if (k <= scenario.ticks()) {
            for (Scenario.Input in : inputs.get(k)) {
                if (in instanceof Scenario.EventInput) {
                    out.add(new DebugTarget.HostEvent(in.agent(), ((Scenario.EventInput) in).tag()));
                }
            }
        }
        return out;
    }
}
