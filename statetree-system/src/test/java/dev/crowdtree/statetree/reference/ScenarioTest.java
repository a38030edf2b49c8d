package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenario parsing, validation and the runner's input timing and line ordering. */
class ScenarioTest {

    private static Scenario parse(String json) throws ScenarioException {
        return Scenario.parse(json, "s.json", Path.of("/base"));
    }

    private static ScenarioException error(String json) {
        return assertThrows(ScenarioException.class, () -> parse(json));
    }

    private static void assertError(String json, String field, String fragment) {
        ScenarioException e = error(json);
        assertEquals("s.json", e.source());
        assertEquals(field, e.field());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        assertTrue(e.getMessage().startsWith("s.json: " + (field == null ? "" : field + ": ")), e.getMessage());
    }

    @Test
    void fullScenarioParsesWithEveryInputKind() throws Exception {
        Scenario s = parse("{\"tree\": \"asset.json\", \"dt\": 0.25, \"ticks\": 20, \"seed\": 7, \"agents\": 3,"
                + " \"workers\": 2, \"inputs\": [{\"tick\": 3, \"set\": {\"threat\": 0.9}},"
                + " {\"tick\": 5, \"event\": \"Alarm\"}, {\"tick\": 6, \"event\": {\"tag\": \"Hit\", \"payload\": 2}, \"agent\": 0},"
                + " {\"tick\": 9, \"stop\": true}, {\"tick\": 10, \"start\": true}]}");
        assertEquals(Path.of("/base/asset.json"), s.tree());
        assertEquals(0.25f, s.dt());
        assertEquals(20, s.ticks());
        assertEquals(7, s.seed());
        assertEquals(3, s.agents());
        assertEquals(2, s.workers());
        assertEquals(5, s.inputs().size());
        Scenario.SetInput set = assertInstanceOf(Scenario.SetInput.class, s.inputs().get(0));
        assertEquals(StateTreeRuntime.ALL, set.agent());
        assertEquals(0.9, set.values().get("threat").number(), 1e-12);
        Scenario.EventInput alarm = assertInstanceOf(Scenario.EventInput.class, s.inputs().get(1));
        assertEquals("Alarm", alarm.tag());
        assertTrue(!alarm.hasPayload());
        Scenario.EventInput hit = assertInstanceOf(Scenario.EventInput.class, s.inputs().get(2));
        assertEquals(0, hit.agent());
        assertEquals(dev.crowdtree.statetree.node.Payload.number(2f), hit.payload());
        assertTrue(hit.hasPayload());
        assertInstanceOf(Scenario.StopInput.class, s.inputs().get(3));
        assertEquals(StateTreeRuntime.ALL, assertInstanceOf(Scenario.StartInput.class, s.inputs().get(4)).agent());
    }

    @Test
    void aStartIsOfEveryAgentAfterTheFirstStart() {
        for (String input : List.of("{\"tick\": 2, \"start\": true, \"agent\": 0}", "{\"tick\": 0, \"start\": true}")) {
            assertError("{\"ticks\": 4, \"inputs\": [" + input + "]}", "inputs[0]",
                    "a start starts every agent (no 'agent'), at a tick after 0");
        }
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 2, \"start\": false}]}", "inputs[0].start",
                "expected true, got false");
    }

    @Test
    void defaults() throws Exception {
        Scenario s = parse("{\"ticks\": 4}");
        assertNull(s.tree());
        assertEquals(0.1f, s.dt());
        assertEquals(1, s.seed());
        assertEquals(1, s.agents());
        assertEquals(1, s.workers());
        assertEquals(List.of(), s.inputs());
    }

    @Test
    void errorsNameTheFileAndTheField() {
        assertError("{\"ticks\": 4, \"tick\": 3}", "tick", "unknown field 'tick'");
        assertError("{\"ticks\": 4, \"tick\": 3}", "tick", "; did you mean [ticks]?");
        assertError("{}", "ticks", "missing required field 'ticks'");
        assertError("{\"ticks\": \"4\"}", "ticks", "expected an integer");
        assertError("{\"ticks\": 4.5}", "ticks", "expected an integer");
        assertError("{\"ticks\": -1}", "ticks", "out of range");
        assertError("{\"ticks\": 4, \"dt\": 0}", "dt", "positive number");
        assertError("{\"ticks\": 4, \"dt\": \"fast\"}", "dt", "positive number");
        assertError("{\"ticks\": 4, \"agents\": 0}", "agents", "out of range");
        assertError("{\"ticks\": 4, \"workers\": 0}", "workers", "out of range");
        assertError("{\"ticks\": 4, \"seed\": 1.5}", "seed", "expected an integer");
        assertError("{\"ticks\": 4, \"tree\": 3}", "tree", "file name");
        assertError("{\"ticks\": 4, \"inputs\": {}}", "inputs", "list of inputs");
        assertError("{\"ticks\": 4, \"inputs\": [3]}", "inputs[0]", "input object");
        assertError("{\"ticks\": 4, \"inputs\": [{\"event\": \"A\"}]}", "inputs[0].tick", "missing");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 5, \"event\": \"A\"}]}", "inputs[0].tick",
                "out of range 0..4");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": -1, \"event\": \"A\"}]}", "inputs[0].tick", "out of range");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"event\": \"A\", \"agent\": 1}]}", "inputs[0].agent",
                "out of range 0..0");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"event\": \"A\", \"agent\": \"x\"}]}",
                "inputs[0].agent", "expected an agent id");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"evnt\": \"A\"}]}", "inputs[0].evnt",
                "unknown field 'evnt'; valid fields are [tick, agent, set, event, payload, period, stop, start, despawn, column, value]; did you mean [event]?");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1}]}", "inputs[0]", "exactly one of");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"event\": \"A\", \"stop\": true}]}", "inputs[0]",
                "not several");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"stop\": false}]}", "inputs[0].stop", "expected true");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"set\": {}}]}", "inputs[0].set", "at least one");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"set\": {\"x\": [1]}}]}", "inputs[0].set.x",
                "a number, a boolean or an enum value name");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"event\": \"\"}]}", "inputs[0].event", "empty");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"event\": {\"tag\": \"A\", \"load\": 1}}]}",
                "inputs[0].event.load", "unknown field");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"event\": {\"payload\": 1}}]}",
                "inputs[0].event.tag", "non-empty event tag");
        assertError("{\"ticks\": 4, \"inputs\": [{\"tick\": 1, \"event\": {\"tag\": \"A\", \"payload\": true}}]}",
                "inputs[0].event.payload", "expected a number");
    }

    @Test
    void malformedJsonIsReportedWithItsLocation() {
        assertError("{\"ticks\": 4,\n \"dt\": }", null, "invalid JSON at line 2");
        assertError("{\"ticks\": 4, \"ticks\": 5}", null, "Duplicate field 'ticks'");
        assertError("[1]", null, "expected a scenario object");
        assertError("", null, "empty");
        assertError("{\"ticks\": 4} {}", null, "invalid JSON");
    }

    private static CompiledStateTree paramTree() {
        return TestNodes.compile(tree("T").param("threat", "float", 0.0).param("count", "int", 0)
                .param("alert", "bool", false)
                .root(state("Root")
                        .child(state("Calm").task(node("run"))
                                .transition(on("onTick").to("Scared")
                                        .when(node("compare").with("param", "threat").with("op", ">").with("value", 0.5))))
                        .child(state("Scared").task(node("run")))).build());
    }

    @Test
    void parameterNamesAndTypesAreCheckedAgainstTheTree() {
        CompiledStateTree t = paramTree();
        String[][] cases = {
                {"{\"threat\": 1}", "ok"},
                {"{\"treat\": 1}", "unknown parameter 'treat'; tree 'T' has parameters [threat, count, alert]; did you mean [threat]?"},
                {"{\"threat\": true}", "expected a number, got a boolean"},
                {"{\"count\": 1.5}", "expected an integer"},
                {"{\"count\": 2}", "ok"},
                {"{\"alert\": 1}", "expected true or false"},
                {"{\"alert\": true}", "ok"},
        };
        for (String[] c : cases) {
            String json = "{\"ticks\": 2, \"inputs\": [{\"tick\": 1, \"event\": \"A\"}, {\"tick\": 1, \"set\": " + c[0] + "}]}";
            if (c[1].equals("ok")) {
                TestNodes.run(t, json);
            } else {
                ScenarioException e = assertThrows(ScenarioException.class,
                        () -> ScenarioRunner.run(Scenario.parse(json, "p.json", null), t, ScenarioRunner.REFERENCE));
                assertTrue(e.getMessage().startsWith("p.json: inputs[1].set."), e.getMessage());
                assertTrue(e.getMessage().contains(c[1]), e.getMessage());
            }
        }
    }

    @Test
    void inputsApplyJustBeforeTheirTickAndLinesAreOrderedByAgentWithinATick() {
        CompiledStateTree t = paramTree();
        List<String> trace = TestNodes.run(t, "{\"ticks\": 3, \"agents\": 2, \"inputs\": ["
                + "{\"tick\": 2, \"stop\": true, \"agent\": 1},"
                + "{\"tick\": 2, \"set\": {\"threat\": 0.9}}]}");
        assertEquals(List.of(
                "a0 0 start", "a0 0 enter Root changed", "a0 0 enter Root/Calm changed", "a0 0 task-enter Root/Calm:run",
                "a1 0 start", "a1 0 enter Root changed", "a1 0 enter Root/Calm changed", "a1 0 task-enter Root/Calm:run",
                "a0 2 transition Root/Calm -> Root/Scared", "a0 2 exit Root/Calm changed",
                "a0 2 task-exit Root/Calm:run", "a0 2 enter Root/Scared changed", "a0 2 task-enter Root/Scared:run",
                "a1 2 exit Root/Calm changed", "a1 2 task-exit Root/Calm:run", "a1 2 exit Root changed",
                "a1 2 tree stopped"), trace);
    }

    @Test
    void inputsAtTickZeroApplyBeforeTheStart() {
        CompiledStateTree t = TestNodes.compile(tree("T").param("brave", "bool", false).root(state("Root")
                .child(state("Fight").enterCondition(node("bool").with("param", "brave")).task(node("run")))
                .child(state("Hide").task(node("run")))).build());
        assertEquals("0 enter Root/Fight changed",
                TestNodes.run(t, "{\"ticks\": 0, \"inputs\": [{\"tick\": 0, \"set\": {\"brave\": true}}]}").get(2));
        assertEquals("0 enter Root/Hide changed", TestNodes.run(t, "{\"ticks\": 0}").get(2));
    }
}
