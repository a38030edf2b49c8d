package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.compiler.Suggestions;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.internal.HostDeclarations;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.ValueType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;

/**
 * Runs a {@link Scenario} on a runtime and returns its canonical trace (docs/SEMANTICS.md section
 * 10): tick 0 is {@code startAll(0)}, ticks 1..N are {@code tickAll(k, dt)} (or {@code startAll(k)} when a
 * {@code start} input names tick k), and the inputs of tick k are applied just before tick k runs, in
 * the order listed.
 *
 * <p>The lines of one tick (including those of {@code stop} and {@code start} inputs of that tick) are collected and
 * ordered by agent, stably, so a runtime may deliver them per agent as they happen or sorted after
 * the tick. With more than one agent every line is prefixed {@code a<k> }.
 *
 * <p>The trace streams: {@link #run(Scenario, CompiledStateTree, RuntimeFactory, Consumer)} hands
 * each tick's lines to a consumer right after the tick, so memory stays flat however long the
 * scenario runs; the variants that return a {@link List} collect the same lines. Before it starts,
 * the runner refuses a scenario whose agents would not fit in the heap
 * ({@link #estimatedBytesPerAgent}).
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
     * @throws ScenarioException         if the scenario names no tree (or one outside its directory,
     *                                   see {@link Scenario#resolveTree()}) or does not fit it
     * @throws StateTreeCompileException if the tree asset cannot be read or compiled
     */
    public static List<String> run(Scenario scenario, StateTreeCompiler compiler, RuntimeFactory factory)
            throws ScenarioException, StateTreeCompileException {
        CompiledStateTree tree = StateTreeJson.compile(scenario.resolveTree(), compiler);
        return run(scenario, tree, factory);
    }

    /**
     * Runs {@code scenario} on {@code tree} (the scenario's own {@code tree} field is ignored).
     *
     * @return the trace, one line per element
     * @throws ScenarioException if an input names an unknown parameter or gives it a value of the
     *                           wrong type, or the agents would not fit in the heap
     */
    public static List<String> run(Scenario scenario, CompiledStateTree tree, RuntimeFactory factory)
            throws ScenarioException {
        List<String> out = new ArrayList<>();
        run(scenario, tree, factory, out::add);
        return out;
    }

    /**
     * Runs {@code scenario} on {@code tree} (the scenario's own {@code tree} field is ignored) and
     * hands every trace line to {@code lines} as soon as its tick is over, in trace order. An
     * exception thrown by {@code lines} ends the run (the runtime is closed) and propagates.
     *
     * @throws ScenarioException if an input names an unknown parameter or gives it a value of the
     *                           wrong type, or the agents would not fit in the heap
     */
    public static void run(Scenario scenario, CompiledStateTree tree, RuntimeFactory factory, Consumer<String> lines)
            throws ScenarioException {
        run(scenario, tree, factory, lines, null);
    }

    /**
     * {@link #run(Scenario, CompiledStateTree, RuntimeFactory, Consumer)}, and after each tick (Start
     * included), once its lines are handed over, {@code afterTick} (if not null) sees the runtime and
     * the tick: to read its {@code recorder()}, for example.
     */
    public static void run(Scenario scenario, CompiledStateTree tree, RuntimeFactory factory, Consumer<String> lines,
                           ObjIntConsumer<StateTreeRuntime> afterTick) throws ScenarioException {
        validate(scenario, tree);
        checkMemory(scenario, tree);
        List<Line> tickLines = new ArrayList<>();
        boolean prefix = scenario.agents() > 1;
        try (StateTreeRuntime runtime = factory.create(tree, scenario.agents(), scenario.seed(), scenario.workers())) {
            runtime.setTrace((agent, line) -> tickLines.add(new Line(agent, line)));
            runtime.setNodeErrorPolicy(scenario.onNodeError());
            List<Scenario.Input> inputs = new ArrayList<>(scenario.inputs());
            inputs.sort(Comparator.comparingInt(Scenario.Input::tick)); // stable: listed order within a tick
            int next = 0;
            for (int k = 0; k <= scenario.ticks(); k++) {
                boolean start = k == 0;
                while (next < inputs.size() && inputs.get(next).tick() == k) {
                    start |= apply(runtime, tree, inputs.get(next++), k);
                }
                if (start) {
                    runtime.startAll(k);
                } else {
                    runtime.tickAll(k, scenario.dt());
                }
                tickLines.sort(Comparator.comparingInt(Line::agent)); // List.sort is stable
                for (Line l : tickLines) {
                    lines.accept(prefix ? "a" + l.agent() + " " + l.text() : l.text());
                }
                tickLines.clear();
                if (afterTick != null) {
                    afterTick.accept(runtime, k);
                }
            }
        }
    }

    /**
     * About how many bytes of heap a trace run of {@code tree} needs per agent: the runtime's
     * per-agent data (a fixed part and 8 bytes per parameter or node slot) and the trace lines of
     * one busy tick (every state and task of the longest path exited and entered), which are held
     * until the tick is over. An estimate on the safe side, for refusing a scenario that cannot fit.
     */
    public static long estimatedBytesPerAgent(CompiledStateTree tree) {
        int longest = 0;
        for (int s = 0; s < tree.stateCount; s++) {
            int onPath = 0;
            for (int p = s; p >= 0; p = tree.stateParent(p)) {
                onPath += 1 + tree.stateTasksNum(p);
            }
            longest = Math.max(longest, onPath);
        }
        long linesPerTick = 4L + 2L * (longest + tree.globalTaskCount);
        long slots = (long) tree.floatSlots + tree.intSlots + tree.boolSlots;
        return 1024 + 8 * slots + BYTES_PER_LINE * linesPerTick;
    }

    /** A trace line held until its tick is over: the string, its prefix, the list entry. */
    private static final long BYTES_PER_LINE = 160;

    /** Refuses a scenario whose agents need more heap than the JVM may take. */
    private static void checkMemory(Scenario scenario, CompiledStateTree tree) throws ScenarioException {
        long perAgent = estimatedBytesPerAgent(tree);
        long need = perAgent * scenario.agents();
        long max = Runtime.getRuntime().maxMemory();
        if (max != Long.MAX_VALUE && need > max) {
            throw new ScenarioException(scenario.source(), "agents", String.format(Locale.ROOT,
                    "%,d agents need about %,d MB of heap for a trace of tree '%s' (about %,d bytes each), more than"
                            + " the %,d MB this JVM may use; use fewer agents, or give Java more memory (-Xmx)",
                    scenario.agents(), need >> 20, tree.name, perAgent, max >> 20));
        }
    }

    private record Line(int agent, String text) {
    }

    /**
     * Applies an input before its tick (for a runner of its own, such as the debugger); returns true for a {@code start} input, which makes the tick a
     * Start of every agent instead of a Tick (applied by the caller, after the tick's other inputs).
     */
    public static boolean apply(StateTreeRuntime runtime, CompiledStateTree tree, Scenario.Input input, int tick) {
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
        } else if (input instanceof Scenario.ColumnInput) {
            Scenario.ColumnInput c = (Scenario.ColumnInput) input;
            runtime.setHostValue(c.agent(), c.column(), c.value());
        } else if (input instanceof Scenario.DespawnInput) {
            runtime.despawn(input.agent(), tick);
        } else if (input instanceof Scenario.StartInput) {
            return true;
        } else {
            runtime.stop(input.agent(), tick);
        }
        return false;
    }

    /** Checks a column input's column and value against the tree's host columns. */
    private static void validateColumn(Scenario scenario, CompiledStateTree tree, Scenario.ColumnInput c)
            throws ScenarioException {
        String field = "inputs[" + c.index() + "]";
        int handle;
        try {
            handle = HostDeclarations.column(tree, c.column());
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(scenario.source(), field + ".column", e.getMessage());
        }
        try {
            tree.hostColumns.get(handle).type().check(c.column(), c.value());
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(scenario.source(), field + ".value", e.getMessage());
        }
    }

    /**
     * Checks the scenario's parameter names and value types against the tree.
     *
     * @throws ScenarioException naming the input and field that do not fit
     */
    public static void validate(Scenario scenario, CompiledStateTree tree) throws ScenarioException {
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
            if (input instanceof Scenario.ColumnInput) {
                validateColumn(scenario, tree, (Scenario.ColumnInput) input);
            }
            if (!(input instanceof Scenario.SetInput)) {
                continue;
            }
            Scenario.SetInput s = (Scenario.SetInput) input;
            for (Map.Entry<String, Scenario.Value> e : s.values().entrySet()) {
                String field = "inputs[" + s.index() + "].set." + e.getKey();
                int p = tree.paramIndex(e.getKey());
                if (p < 0) {
                    throw new ScenarioException(scenario.source(), field, "unknown parameter '" + e.getKey() + "'"
                            + tree.stateParameters.hostNote(e.getKey(), tree.statePaths()) + "; tree '" + tree.name
                            + "' has parameters " + tree.paramNames()
                            + Suggestions.didYouMean(e.getKey(), tree.paramNames()));
                }
                ValueType type = tree.paramType(p);
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
