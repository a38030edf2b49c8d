package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.DotWriter;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import dev.crowdtree.statetree.reference.ScenarioException;
import dev.crowdtree.statetree.reference.ScenarioRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code "tickPeriod"} and state {@code "parameters"} (docs/SEMANTICS.md section 19, rules Z1-Z5 and
 * X1-X6) through the builder, the loader, the writer, the compiler, the enabled flags' pruning, DOT,
 * linked assets and the runtimes' {@code setParameter}. Their behaviour is in the golden cases
 * {@code tick_period_*} and {@code state_params*}.
 */
class StateParametersAssetTest {
    private static final StateTreeCompiler COMPILER = StateTreeCompiler.withBuiltins();

    @TempDir
    Path dir;

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    private static final String PATROL = json("{'name': 'Patrol', 'parameters': {'speed': {'type': 'float', 'default': 2.0}},"
            + " 'root': {'name': 'Root', 'tickPeriod': 8, 'parameters': {'laps': {'type': 'int', 'default': 0}},"
            + " 'children': [{'name': 'Walk', 'tickPeriod': 2,"
            + "  'parameters': {'wait': {'type': 'float', 'value': {'fn': 'mul', 'args': [{'param': 'speed'}, 1.5]}}},"
            + "  'tasks': [{'type': 'delay', 'duration': {'param': 'wait'}}],"
            + "  'transitions': [{'trigger': 'onStateCompleted', 'to': 'Root/Rest'}]},"
            + " {'name': 'Rest', 'parameters': {'left': {'type': 'int', 'value': {'param': 'laps'}}}, 'tasks': [{'type': 'run'}]}]}}");

    private static TreeDef patrol() {
        return tree("Patrol").param("speed", "float", 2.0)
                .root(state("Root").tickPeriod(8).param("laps", "int", 0)
                        .child(state("Walk").tickPeriod(2)
                                .paramValue("wait", "float", fn("mul", Binding.param("speed"), 1.5))
                                .task(node("delay").with("duration", Binding.param("wait")))
                                .transition(on("onStateCompleted").to("Root/Rest")))
                        .child(state("Rest").paramValue("left", "int", Binding.param("laps")).task(node("run"))))
                .build();
    }

    /** A property function, its keys in the order the JSON has them. */
    private static Map<String, Object> fn(String name, Object... args) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fn", name);
        m.put("args", List.of(args));
        return m;
    }

    @Test
    void theBuilderMirrorsTheJsonAndWritingRoundTrips() throws Exception {
        TreeDef read = StateTreeJson.read("patrol.json", PATROL);
        DefEquivalence.assertEquivalent(patrol(), read);
        String written = StateTreeJson.write(read);
        assertTrue(written.contains("\"tickPeriod\": 2,"), written);
        assertTrue(written.contains("\"wait\": {\n"), written);
        TreeDef again = StateTreeJson.read("again.json", written);
        DefEquivalence.assertEquivalent(read, again);
        assertEquals(written, StateTreeJson.write(again), "writing is stable");
    }

    @Test
    void theCompiledTreeHoldsThePeriodsAndTheParametersOfEachState() throws Exception {
        CompiledStateTree t = COMPILER.compile(patrol());
        int root = t.stateByPath("Root");
        int walk = t.stateByPath("Root/Walk");
        int rest = t.stateByPath("Root/Rest");
        assertTrue(t.tickPeriods.any);
        assertEquals(8, t.tickPeriods.declaredPeriod(root));
        assertEquals(2, t.tickPeriods.declaredPeriod(walk));
        assertEquals(0, t.tickPeriods.declaredPeriod(rest));
        // rule Z2: the smallest period on the path, or the LOD period when larger
        assertEquals(1, t.tickPeriods.targetLog(0, walk));
        assertEquals(3, t.tickPeriods.targetLog(0, rest));
        assertEquals(4, t.tickPeriods.targetLog(4, rest));
        assertEquals(2, t.tickPeriods.targetLog(2, -1), "no path: the LOD period");
        assertEquals(1, t.stateParameters.count(root));
        assertEquals(List.of(walk), t.stateParameters.statesDeclaring("wait"));
        // rule X6: Walk's and Rest's parameters share the slots of depth 1 (a float and an int here,
        // after Walk's delay fields); the root's have a slot at depth 0
        int w = t.stateParameters.begin(walk);
        int l = t.stateParameters.begin(rest);
        assertEquals(ValueType.FLOAT, t.stateParameters.type(w));
        assertEquals(ValueType.INT, t.stateParameters.type(l));
        assertEquals("param:laps", t.stateParameters.value(l).toString());
        assertFalse(COMPILER.compile(tree("Plain").root(state("Root").task(node("run"))).build()).tickPeriods.any);
    }

    @Test
    void statesAtOneDepthShareTheirParametersSlots() throws Exception {
        CompiledStateTree t = COMPILER.compile(tree("Union")
                .root(state("Root")
                        .child(state("A").param("x", "float", 1.0).task(node("run")))
                        .child(state("B").param("y", "float", 2.0).task(node("run"))))
                .build());
        int a = t.stateParameters.begin(t.stateByPath("Root/A"));
        int b = t.stateParameters.begin(t.stateByPath("Root/B"));
        assertEquals(t.stateParameters.slot(a), t.stateParameters.slot(b), "one float slot for depth 1");
        assertEquals(1, t.floatSlots);
    }

    @Test
    void dotShowsThePeriodsAndTheParameters() throws Exception {
        String dot = DotWriter.toDot(COMPILER.compile(patrol()));
        assertTrue(dot.contains("tickPeriod 2"), dot);
        assertTrue(dot.contains("parameters: wait: mul(param:speed, 1.5)"), dot);
        assertTrue(dot.contains("parameters: laps: 0"), dot);
    }

    @Test
    void disablingAnotherStateKeepsThePeriodsAndTheParameters() throws Exception {
        CompiledStateTree t = COMPILER.compile(tree("Pruned")
                .root(state("Root")
                        .child(state("Off").enabled(false).tickPeriod(4).param("x", "int", 1).task(node("run")))
                        .child(state("On").tickPeriod(2).param("y", "int", 3).task(node("run"))))
                .build());
        int on = t.stateByPath("Root/On");
        assertEquals(2, t.tickPeriods.declaredPeriod(on));
        assertEquals(1, t.stateParameters.count(on));
        int off = t.stateByPath("Root/Off");
        assertEquals(0, t.tickPeriods.declaredPeriod(off), "a disabled state is a placeholder (rule N2)");
        assertEquals(0, t.stateParameters.count(off));
    }

    @Test
    void aLinkedAssetKeepsItsRootsTickPeriodButItsRootMayNotDeclareParameters() throws Exception {
        Files.writeString(dir.resolve("main.json"), json("{'name': 'Main', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'A', 'type': 'linkedAsset', 'asset': 'part.json'}]}}"));
        Files.writeString(dir.resolve("part.json"), json("{'name': 'Part', 'root': {'name': 'Root', 'tickPeriod': 16,"
                + " 'tasks': [{'type': 'run'}]}}"));
        CompiledStateTree t = StateTreeJson.compile(dir.resolve("main.json"), COMPILER);
        assertEquals(16, t.tickPeriods.declaredPeriod(t.stateByPath("Root/A/Part")));
        Files.writeString(dir.resolve("part.json"), json("{'name': 'Part', 'root': {'name': 'Root',"
                + " 'parameters': {'x': {'type': 'int', 'default': 1}}, 'tasks': [{'type': 'run'}]}}"));
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(dir.resolve("main.json"), COMPILER));
        assertTrue(e.getMessage().contains("state 'Root/A': asset: the root state of linked asset \"part.json\" declares"
                + " parameters; a linked asset's parameters are its top-level 'parameters'"), e.getMessage());
    }

    @Test
    void aHostSetsTheTreesParametersOnlyAndIsToldWhichStatesDeclareAName() throws Exception {
        CompiledStateTree t = COMPILER.compile(patrol());
        try (StateTreeSystem batched = StateTreeSystem.standalone(t, 2, 1, 1, 64);
             ReferenceInterpreter reference = new ReferenceInterpreter(t, 2, 1)) {
            for (StateTreeRuntime rt : List.of(batched, reference)) {
                rt.startAll(0);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rt.setParameter(0, "wait", 1));
                assertEquals("tree 'Patrol' has no parameter 'wait' (a state parameter of Root/Walk: its state gives it its"
                        + " value when entered and its setParameter tasks may write it; a host sets the tree's parameters"
                        + " only, rule X5); its parameters are [speed]", e.getMessage());
                rt.setParameter(0, "speed", 3); // the tree's parameter: fine
            }
        }
        Files.writeString(dir.resolve("tree.json"), PATROL);
        Files.writeString(dir.resolve("scenario.json"), json("{'tree': 'tree.json', 'ticks': 2,"
                + " 'inputs': [{'tick': 1, 'set': {'wait': 1.0}}]}"));
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> ScenarioRunner.run(dir.resolve("scenario.json"), ScenarioRunner.REFERENCE));
        assertTrue(e.getMessage().contains("inputs[0].set.wait: unknown parameter 'wait' (a state parameter of Root/Walk:"),
                e.getMessage());
    }
}
