package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code trace --explain} (docs/SEMANTICS.md section 10): a {@code why} line after each
 * {@code transition} line, the same on every runtime, and nothing else changed.
 */
class ExplainTest {
    /** A why line, with or without the agent prefix of a multi-agent trace. */
    static final Pattern WHY = Pattern.compile("^(a\\d+ )?\\d+ why .*");
    private static final Pattern TRANSITION = Pattern.compile("^(a\\d+ )?\\d+ transition .*");

    /**
     * Every golden case and example, explained on every runtime: the why lines are the same on all
     * of them, exactly one follows each transition line, and without them the trace is the golden one.
     */
    @Test
    void everyGoldenTraceIsExplainedAlikeOnEveryRuntime() throws Exception {
        int explained = 0;
        for (Path c : GoldenTraceTest.cases()) {
            if (!Files.isRegularFile(c.resolve("expected.trace"))) {
                continue;
            }
            Scenario scenario = Scenario.load(c.resolve("scenario.json"));
            List<String> reference = ScenarioRunner.run(scenario, TestNodes.compiler(), ScenarioRunner.REFERENCE.explaining());
            for (GoldenTraceTest.NamedRuntime r : GoldenTraceTest.RUNTIMES) {
                List<String> other = ScenarioRunner.run(scenario, TestNodes.compiler(), r.factory().explaining());
                if (!other.equals(reference)) {
                    fail("explained trace of " + c.getFileName() + " differs on " + r.name() + ":\n"
                            + GoldenTraceTest.unifiedDiff("reference", r.name(), reference, other));
                }
            }
            List<String> plain = new ArrayList<>();
            for (int i = 0; i < reference.size(); i++) {
                String line = reference.get(i);
                boolean why = WHY.matcher(line).matches();
                boolean afterTransition = i > 0 && TRANSITION.matcher(reference.get(i - 1)).matches();
                assertEquals(afterTransition, why, c.getFileName() + ": line " + (i + 1) + " '" + line + "'");
                if (why) {
                    explained++;
                } else {
                    plain.add(line);
                }
            }
            assertEquals(GoldenTraceTest.withoutWhy(Files.readAllLines(c.resolve("expected.trace"), StandardCharsets.UTF_8)),
                    plain, c.getFileName() + ": the explained trace without its why lines");
        }
        assertTrue(explained > 500, "why lines checked: " + explained);
    }

    private static List<String> explain(String tree, String scenario) {
        CompiledStateTree compiled;
        try {
            compiled = StateTreeJson.compile("explain.json", tree.replace('\'', '"'), TestNodes.compiler());
        } catch (StateTreeCompileException e) {
            throw new AssertionError(e.getMessage(), e);
        }
        List<String> reference = TestNodes.run(compiled, scenario.replace('\'', '"'), ScenarioRunner.REFERENCE.explaining());
        for (GoldenTraceTest.NamedRuntime r : GoldenTraceTest.RUNTIMES) {
            assertEquals(reference, TestNodes.run(compiled, scenario.replace('\'', '"'), r.factory().explaining()), r.name());
        }
        List<String> why = new ArrayList<>();
        for (String line : reference) {
            if (WHY.matcher(line).matches()) {
                why.add(line);
            }
        }
        return why;
    }

    @Test
    void controlCharactersInNamesArePrintedEscapedOnEveryRuntime() throws Exception {
        // a state and a task named with an escape sequence: every line prints them as \\uXXXX, never raw
        CompiledStateTree tree = StateTreeJson.compile("ctl.json", ("{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'A\\u001b[2J', 'tasks': [{'type': 'succeed', 'name': 'go\\u0007', 'afterTicks': 1}],"
                + " 'transitions': [{'trigger': 'onStateSucceeded', 'to': 'B'}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]}}")
                .replace('\'', '"'), TestNodes.compiler());
        List<String> lines = TestNodes.run(tree, "{\"dt\": 0.1, \"ticks\": 1}");
        assertTrue(lines.contains("0 enter Root/A\\u001B[2J changed"), lines.toString());
        assertTrue(lines.contains("0 task-enter Root/A\\u001B[2J:go\\u0007"), lines.toString());
        assertTrue(lines.contains("1 transition Root/A\\u001B[2J -> Root/B"), lines.toString());
        assertTrue(lines.stream().noneMatch(l -> l.chars().anyMatch(c -> c < 0x20)), lines.toString());
    }

    @Test
    void eachTriggerIsExplained() {
        String tree = "{'name': 'T', 'parameters': {'go': {'type': 'int', 'default': 0}}, 'root': {'name': 'Root',"
                + " 'children': ["
                + "{'name': 'A', 'tasks': [{'type': 'succeed', 'afterTicks': 2}], 'transitions': ["
                + " {'trigger': 'onEvent', 'event': 'Alarm', 'payloadFields': {'level': 'int'}, 'to': 'B',"
                + "  'conditions': [{'type': 'compare', 'input': {'event': 'level'}, 'op': '>', 'value': 1}]},"
                + " {'trigger': 'onStateSucceeded', 'to': 'B'}]},"
                + "{'name': 'B', 'tasks': [{'type': 'run'}], 'transitions': ["
                + " {'trigger': 'onTick', 'to': 'C', 'priority': 'high', 'delay': 0.5,"
                + "  'conditions': [{'type': 'compare', 'param': 'go', 'op': '==', 'value': 1}]}]},"
                + "{'name': 'C', 'tasks': [{'type': 'fail', 'afterTicks': 1}]}]}}";
        String scenario = "{'dt': 0.25, 'ticks': 9, 'inputs': [{'tick': 1, 'event': 'Alarm', 'payload': {'level': 1}},"
                + " {'tick': 1, 'event': 'Alarm', 'payload': {'level': 3}}, {'tick': 4, 'set': {'go': 1}}]}";
        assertEquals(List.of(
                // the event whose payload passed the conditions, not the first one
                "1 why Root/A transitions[0] onEvent Alarm {level=3} priority normal",
                // a gated onTick transition: its priority and its gate
                "6 why Root/B transitions[0] onTick priority high gate 0.5s",
                // C fails, nothing handles it: the restart from the root, with the completion
                "7 why restart completed Root/C failed",
                // back in A, its task succeeds: the completion transition, with the completed state
                "9 why Root/A transitions[1] onStateSucceeded completed Root/A succeeded priority normal"),
                explain(tree, scenario));
    }

    @Test
    void aCompletionAndACompositeRuleAreExplained() {
        String tree = "{'name': 'T', 'root': {'name': 'Root', 'composite': 'sequence', 'children': ["
                + "{'name': 'A', 'tasks': [{'type': 'succeed', 'afterTicks': 1}]},"
                + "{'name': 'B', 'tasks': [{'type': 'succeed', 'afterTicks': 1}],"
                + " 'transitions': [{'trigger': 'onStateCompleted', 'to': 'A'}]}]}}";
        assertEquals(List.of(
                "1 why composite Root sequence completed Root/A succeeded",
                "2 why Root/B transitions[0] onStateCompleted completed Root/B succeeded priority normal"),
                explain(tree, "{'ticks': 2}"));
    }

    @Test
    void anUnrealDelayThatRanOutIsExplainedWithoutAnEvent() {
        String tree = "{'name': 'T', 'rules': 'unreal-5.8', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent', 'event': 'Go',"
                + " 'to': 'B', 'delay': 0.5}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]}}";
        assertEquals(List.of("3 why Root/A transitions[0] onEvent Go (delay ran out) priority normal gate 0.5s"),
                explain(tree, "{'dt': 0.25, 'ticks': 4, 'inputs': [{'tick': 1, 'event': 'Go'}]}"));
    }

    @Test
    void theIndexIsTheDeclaredOneWithDisabledTransitionsCounted() {
        // rule N4: the disabled transition is left out of the tree that runs, but keeps its place
        String tree = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'A', 'tasks': [{'type': 'run'}],"
                + " 'transitions': [{'trigger': 'onTick', 'to': 'B', 'enabled': false}, {'trigger': 'onEvent', 'event': 'X',"
                + " 'to': 'B', 'enabled': false}, {'trigger': 'onTick', 'to': 'B'}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]}}";
        assertEquals(List.of("1 why Root/A transitions[2] onTick priority normal"), explain(tree, "{'ticks': 1}"));
    }

    @Test
    void withoutExplainTheTraceHasNoWhyLines() {
        String tree = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'A', 'tasks': [{'type': 'succeed',"
                + " 'afterTicks': 1}], 'transitions': [{'trigger': 'onStateSucceeded', 'to': 'A'}]}]}}";
        CompiledStateTree compiled;
        try {
            compiled = StateTreeJson.compile("plain.json", tree.replace('\'', '"'), TestNodes.compiler());
        } catch (StateTreeCompileException e) {
            throw new AssertionError(e.getMessage(), e);
        }
        List<String> plain = TestNodes.run(compiled, "{\"ticks\": 3}");
        assertTrue(plain.stream().noneMatch(l -> WHY.matcher(l).matches()), String.join("\n", plain));
        assertTrue(plain.contains("1 transition Root/A -> Root/A"), String.join("\n", plain));
    }
}
