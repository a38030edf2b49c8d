package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.ValueType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link Scenario} on a runtime and returns its canonical trace (docs/SEMANTICS.md section
 * 10): tick 0 is {@code startAll(0)}, ticks 1..N are {@code tickAll(k, dt)}, and the inputs of
 * tick k are applied just before tick k runs, in the order listed.
 *
 * <p>The lines of one tick (including those of {@code stop} inputs of that tick) are collected and
 * ordered by agent, stably, so a runtime may deliver them per agent as they happen or sorted after
 * the tick. With more than one agent every line is prefixed {@code a<k> }.
 */
public final class ScenarioRunner {
    /** The per-agent {@link ReferenceInterpreter} (ignores the worker count). */
    public static final RuntimeFactory REFERENCE = (tree, agents, seed, workers) ->
            new ReferenceInterpreter(tree, agents, seed);

    /** The reference interpreter with Unreal 5.6's scheduled tick (sleeping agents are skipped). */
    public static final RuntimeFactory REFERENCE_SCHEDULED = (tree, agents, seed, workers) ->
            new ReferenceInterpreter(tree, agents, seed, ReferenceInterpreter.TickMode.SCHEDULED);

    private ScenarioRunner() {
    }

    /**
     * Loads a scenario file, compiles its tree asset with the built-in node types and runs it.
     *
     * @throws ScenarioException         if the scenario is malformed or does not fit the tree
     * @throws StateTreeCompileException if the tree asset cannot be read or compiled
     */
    public static List<String> run(Path scenarioFile, RuntimeFactory factory)
            throws ScenarioException, StateTreeCompileException {
        return run(Scenario.load(scenarioFile), StateTreeCompiler.withBuiltins(), factory);
    }

    /**
     * Compiles the scenario's tree asset ({@link Scenario#tree()}) with {@code compiler} and runs it.
     *
     * @throws ScenarioException         if the scenario names no tree or does not fit it
     * @throws StateTreeCompileException if the tree asset cannot be read or compiled
     */
    public static List<String> run(Scenario scenario, StateTreeCompiler compiler, RuntimeFactory factory)
            throws ScenarioException, StateTreeCompileException {
        if (scenario.tree() == null) {
            throw new ScenarioException(scenario.source(), "tree",
                    "missing field 'tree' (the tree asset's file name, relative to the scenario)");
        }
        CompiledStateTree tree = StateTreeJson.compile(scenario.tree(), compiler);
        return run(scenario, tree, factory);
    }

    /**
     * Runs {@code scenario} on {@code tree} (the scenario's own {@code tree} field is ignored).
     *
     * @return the trace, one line per element
     * @throws ScenarioException if an input names an unknown parameter or gives it a value of the
     *                           wrong type
     */
    public static List<String> run(Scenario scenario, CompiledStateTree tree, RuntimeFactory factory)
            throws ScenarioException {
        validate(scenario, tree);
        List<String> out = new ArrayList<>();
        List<Line> tickLines = new ArrayList<>();
        boolean prefix = scenario.agents() > 1;
        try (StateTreeRuntime runtime = factory.create(tree, scenario.agents(), scenario.seed(), scenario.workers())) {
            runtime.setTrace((agent, line) -> tickLines.add(new Line(agent, line)));
            runtime.setNodeErrorPolicy(scenario.onNodeError());
            List<Scenario.Input> inputs = new ArrayList<>(scenario.inputs());
            inputs.sort(Comparator.comparingInt(Scenario.Input::tick)); // stable: listed order within a tick
            int next = 0;
            for (int k = 0; k <= scenario.ticks(); k++) {
                while (next < inputs.size() && inputs.get(next).tick() == k) {
                    apply(runtime, tree, inputs.get(next++), k);
                }
                if (k == 0) {
                    runtime.startAll(0);
                } else {
                    runtime.tickAll(k, scenario.dt());
                }
                tickLines.sort(Comparator.comparingInt(Line::agent)); // List.sort is stable
                for (Line l : tickLines) {
                    out.add(prefix ? "a" + l.agent() + " " + l.text() : l.text());
                }
                tickLines.clear();
            }
        }
        return out;
    }

    private record Line(int agent, String text) {
    }

    private static void apply(StateTreeRuntime runtime, CompiledStateTree tree, Scenario.Input input, int tick) {
        if (input instanceof Scenario.SetInput) {
            Scenario.SetInput s = (Scenario.SetInput) input;
            for (Map.Entry<String, Scenario.Value> e : s.values().entrySet()) {
                if (e.getValue().name() != null) {
                    runtime.setParameter(s.agent(), e.getKey(), e.getValue().name());
                } else {
                    runtime.setParameter(s.agent(), e.getKey(), e.getValue().number());
                }
            }
        } else if (input instanceof Scenario.EventInput) {
            Scenario.EventInput e = (Scenario.EventInput) input;
            runtime.sendEvent(e.agent(), e.tag(), e.payload());
        } else if (input instanceof Scenario.PeriodInput) {
            runtime.setTickPeriod(input.agent(), ((Scenario.PeriodInput) input).period());
        } else if (input instanceof Scenario.DespawnInput) {
            runtime.despawn(input.agent(), tick);
        } else {
            runtime.stop(input.agent(), tick);
        }
    }

    /** Checks the scenario's parameter names and value types against the tree. */
    static void validate(Scenario scenario, CompiledStateTree tree) throws ScenarioException {
        // An agent despawned at tick k is named by no input after it (the same tick's later ones included).
        Map<Integer, Integer> despawnedAt = new java.util.HashMap<>();
        List<Scenario.Input> ordered = new ArrayList<>(scenario.inputs());
        ordered.sort(Comparator.comparingInt(Scenario.Input::tick));
        for (Scenario.Input input : ordered) {
            Integer gone = despawnedAt.get(input.agent());
            if (gone != null) {
                throw new ScenarioException(scenario.source(), "inputs[" + input.index() + "]", "agent " + input.agent()
                        + " was despawned at tick " + gone + "; an input cannot name it afterwards");
            }
            if (input instanceof Scenario.DespawnInput) {
                despawnedAt.put(input.agent(), input.tick());
            }
        }
        for (Scenario.Input input : scenario.inputs()) {
            if (!(input instanceof Scenario.SetInput)) {
                continue;
            }
            Scenario.SetInput s = (Scenario.SetInput) input;
            for (Map.Entry<String, Scenario.Value> e : s.values().entrySet()) {
                String field = "inputs[" + s.index() + "].set." + e.getKey();
                int p = tree.paramIndex(e.getKey());
                if (p < 0) {
                    throw new ScenarioException(scenario.source(), field, "unknown parameter '" + e.getKey()
                            + "'; tree '" + tree.name + "' has parameters " + List.of(tree.paramName));
                }
                ValueType type = tree.paramType[p];
                Scenario.Value v = e.getValue();
                if (tree.enumValues(p) != null || v.name() != null) {
                    if (tree.enumValues(p) == null) {
                        throw new ScenarioException(scenario.source(), field, "parameter '" + e.getKey() + "' is not an "
                                + "enum; a value name is valid only for an enum parameter");
                    }
                    if (v.name() == null || !tree.enumValues(p).contains(v.name())) {
                        throw new ScenarioException(scenario.source(), field, "enum parameter '" + e.getKey()
                                + "' takes one of the value names " + tree.enumValues(p));
                    }
                    continue;
                }
                if (type == ValueType.BOOL && !v.isBoolean()) {
                    throw new ScenarioException(scenario.source(), field, "parameter '" + e.getKey()
                            + "' is bool; expected true or false");
                }
                if (type != ValueType.BOOL && v.isBoolean()) {
                    throw new ScenarioException(scenario.source(), field, "parameter '" + e.getKey() + "' is "
                            + type.assetName() + "; expected a number, got a boolean");
                }
                if (type == ValueType.INT && (!v.isInteger() || v.number() < Integer.MIN_VALUE
                        || v.number() > Integer.MAX_VALUE)) {
                    throw new ScenarioException(scenario.source(), field, "parameter '" + e.getKey()
                            + "' is int; expected an integer in 32-bit range, got " + v.number());
                }
                if (type == ValueType.FLOAT && Float.isInfinite((float) v.number())) {
                    throw new ScenarioException(scenario.source(), field, "value " + v.number()
                            + " does not fit a float parameter");
                }
            }
        }
    }
}
