package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Value checks at the API (issue 11): {@code setParameter} refuses NaN, infinities and values a
 * parameter cannot hold, naming the parameter, in both runtimes, and leaves the value as it was; a
 * number payload must be finite.
 */
class ParameterValuesTest {
    private static final String TREE = "{\"name\": \"Params\", \"parameters\": {"
            + "\"f\": {\"type\": \"float\", \"default\": 0.5}, \"i\": {\"type\": \"int\", \"default\": 3},"
            + " \"b\": {\"type\": \"bool\", \"default\": true}, \"mood\": {\"type\": \"enum\", \"values\": [\"Calm\", \"Wary\"]},"
            + " \"target\": {\"type\": \"entity\"}},"
            + " \"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"run\"}],"
            + " \"transitions\": [{\"trigger\": \"onTick\", \"to\": \"@failed\","
            + " \"conditions\": [{\"type\": \"compare\", \"param\": \"i\", \"op\": \"==\", \"value\": 7}]}]}}";

    @Test
    void badValuesAreRefusedNamingTheParameterInBothRuntimes() throws Exception {
        CompiledStateTree t = StateTreeJson.compile("params.json", TREE, StateTreeCompiler.withBuiltins());
        List<Supplier<StateTreeRuntime>> runtimes = List.of(() -> new ReferenceInterpreter(t, 2, 1),
                () -> StateTreeSystem.standalone(t, 2, 1, 1, 64));
        Object[][] bad = {
            {"f", Double.NaN, "a finite number"}, {"f", Double.POSITIVE_INFINITY, "a finite number"},
            {"f", 1e39, "32-bit float range"}, {"i", 2.5, "an integer"}, {"i", 3e9, "an integer"},
            {"i", Double.NaN, "an integer"}, {"b", 2.0, "0 (false) or 1 (true)"}, {"b", 0.5, "0 (false) or 1 (true)"},
            {"mood", 2.0, "[Calm, Wary]"}, {"mood", -1.0, "[Calm, Wary]"}, {"target", -2.0, "an agent id, or -1"},
            {"target", 0.5, "an agent id, or -1"}};
        for (Supplier<StateTreeRuntime> make : runtimes) {
            try (StateTreeRuntime rt = make.get()) {
                rt.startAll(0);
                for (Object[] c : bad) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> rt.setParameter(StateTreeRuntime.ALL, (String) c[0], (Double) c[1]), c[0] + "=" + c[1]);
                    assertTrue(e.getMessage().contains("parameter '" + c[0] + "'") && e.getMessage().contains((String) c[2]),
                            e.getMessage());
                }
                rt.setParameter(0, "i", 7); // a good value still works: agent 0's tree fails at the next tick
                rt.setParameter(1, "f", -2.5e38);
                rt.setParameter(1, "target", 1);
                rt.setParameter(1, "mood", "Wary");
                rt.tickAll(1, 0.1f);
                assertEquals("failed", dev.crowdtree.statetree.node.RunStatus.name(rt.treeStatus(0)));
                assertEquals("running", dev.crowdtree.statetree.node.RunStatus.name(rt.treeStatus(1)));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> rt.sendEvent(0, "Go", Float.NaN, true));
                assertTrue(e.getMessage().contains("finite"), e.getMessage());
            }
        }
    }
}
