package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Unreal 5.8's rules (docs/SEMANTICS.md section 20, rules U2-U6) on small trees: each tree runs under
 * {@code "rules": "unreal-5.8"} and under the seeds' rules, on every runtime of
 * {@link GoldenTraceTest#RUNTIMES} ({@link TestNodes#run}: the reference interpreter, with the
 * scheduled tick too, and the batched runtime on the scenario's workers and on 3 must trace alike),
 * and the test asserts what the rule does in the trace, with what the seeds' rules do instead. The
 * compile errors of rule U1 are in {@code json.CompileErrorsTest} and {@code json.LinkedAssetTest}.
 */
class UnrealRulesTest {
    private static final String UNREAL = "unreal-5.8";

    /** Runs {@code tree} (single-quoted JSON named 'T') under {@code rules} (null: the key left out). */
    private static List<String> run(String rules, String tree, String scenario) {
        assertTrue(tree.startsWith("{'name': 'T',"), tree);
        String json = rules == null ? tree : "{'name': 'T', 'rules': '" + rules + "'," + tree.substring("{'name': 'T',".length());
        CompiledStateTree compiled;
        try {
            compiled = StateTreeJson.compile("unreal.json", json.replace('\'', '"'), TestNodes.compiler());
        } catch (StateTreeCompileException e) {
            throw new AssertionError(e.getMessage(), e);
        }
        assertEquals(UNREAL.equals(rules), compiled.unreal.on);
        return TestNodes.run(compiled, scenario.replace('\'', '"'));
    }

    private static List<String> unreal(String tree, String scenario) {
        return run(UNREAL, tree, scenario);
    }

    private static List<String> seed(String tree, String scenario) {
        List<String> absent = run(null, tree, scenario);
        assertEquals(absent, run("seed", tree, scenario), "seed is the default");
        return absent;
    }

    /** The lines of {@code trace} at {@code tick} (a one-agent trace). */
    private static List<String> at(List<String> trace, int tick) {
        return trace.stream().filter(l -> l.startsWith(tick + " ")).toList();
    }

    /** The ticks at which {@code trace} has a transition. */
    private static List<Integer> transitionTicks(List<String> trace) {
        return trace.stream().filter(l -> l.contains(" transition ")).map(l -> Integer.parseInt(l.substring(0, l.indexOf(' '))))
                .toList();
    }

    // ---- U2: completion inside a linked subtree ------------------------------------------------

    private static final String LINKED = "{'name': 'T', 'root': {'name': 'Root', 'children': ["
            + "{'name': 'L', 'type': 'linked', 'linkedSubtree': 'Sub', 'transitions': [{'trigger': 'onStateSucceeded',"
            + " 'to': 'Next'}]}, {'name': 'Next', 'tasks': [{'type': 'run'}]}]}, 'subtrees': [{'name': 'Sub', 'type': 'subtree',"
            + " 'children': [{'name': 'Leaf', 'tasks': [{'type': 'succeed', 'afterTicks': 1}], 'transitions': ["
            + "{'trigger': 'onStateSucceeded', 'to': '@succeeded'}]}]}]}";

    @Test
    void u2SucceededInsideALinkedSubtreeCompletesTheLinkedStateNotTheTree() {
        List<String> unreal = unreal(LINKED, "{'ticks': 3}");
        assertEquals(List.of(
                "1 state-completed Root/L succeeded",
                // the scan goes on at L with its completion: L's onStateSucceeded fires
                "1 transition Root/L/Sub/Leaf -> Root/Next",
                "1 exit Root/L/Sub/Leaf changed", "1 task-exit Root/L/Sub/Leaf:succeed", "1 exit Root/L/Sub changed",
                "1 exit Root/L changed", "1 enter Root/Next changed", "1 task-enter Root/Next:run"), at(unreal, 1));
        assertFalse(unreal.stream().anyMatch(l -> l.contains(" tree ")), String.join("\n", unreal));

        List<String> seed = seed(LINKED, "{'ticks': 3}");
        assertEquals(List.of("1 transition Root/L/Sub/Leaf -> @succeeded", "1 exit Root/L/Sub/Leaf changed",
                "1 task-exit Root/L/Sub/Leaf:succeed", "1 exit Root/L/Sub changed", "1 exit Root/L changed",
                "1 exit Root changed", "1 tree succeeded"), at(seed, 1));
    }

    @Test
    void u2NestedLinkedSubtreesCompleteOneAfterTheOther() {
        String nested = "{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'L', 'type': 'linked', 'linkedSubtree': 'Sub', 'transitions': [{'trigger': 'onStateFailed',"
                + " 'to': 'Lost'}]},"
                + " {'name': 'Lost', 'tasks': [{'type': 'run'}]}]}, 'subtrees': ["
                + "{'name': 'Sub', 'type': 'subtree', 'children': [{'name': 'L2', 'type': 'linked', 'linkedSubtree': 'Inner',"
                + "  'transitions': [{'trigger': 'onStateFailed', 'to': '@failed'}]}]},"
                + "{'name': 'Inner', 'type': 'subtree', 'children': [{'name': 'I', 'tasks': [{'type': 'fail', 'afterTicks': 1}],"
                + "  'transitions': [{'trigger': 'onStateFailed', 'to': '@failed'}]}]}]}";
        List<String> unreal = unreal(nested, "{'ticks': 2}");
        // I's @failed completes L2; L2's @failed (inside L) completes L; L's onStateFailed fires
        assertEquals(List.of("1 state-completed Root/L/Sub/L2 failed", "1 state-completed Root/L failed",
                "1 transition Root/L/Sub/L2/Inner/I -> Root/Lost"), at(unreal, 1).subList(0, 3));
        assertTrue(unreal.contains("1 enter Root/Lost changed"), String.join("\n", unreal));
        assertTrue(seed(nested, "{'ticks': 2}").contains("1 tree failed"));
    }

    @Test
    void u2WithNothingFoundAtTheLinkedStateTheTreeRestartsFromTheRoot() {
        String restart = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'L', 'type': 'linked',"
                + " 'linkedSubtree': 'Sub'}]}, 'subtrees': [{'name': 'Sub', 'type': 'subtree', 'tasks': [{'type': 'run',"
                + " 'name': 'keep'}], 'children': [{'name': 'Leaf', 'tasks': [{'type': 'succeed', 'afterTicks': 1}],"
                + " 'transitions': [{'trigger': 'onStateSucceeded', 'to': '@succeeded'}]}]}]}";
        List<String> unreal = unreal(restart, "{'ticks': 1}");
        assertEquals(List.of("1 state-completed Root/L succeeded", "1 transition Root/L/Sub/Leaf -> Root",
                "1 exit Root/L/Sub/Leaf changed", "1 task-exit Root/L/Sub/Leaf:succeed", "1 exit Root/L/Sub changed",
                "1 task-exit Root/L/Sub:keep", "1 exit Root/L changed", "1 exit Root sustained", "1 enter Root sustained",
                // U3: the completed state L and everything below it are entered again as changed
                "1 enter Root/L changed", "1 enter Root/L/Sub changed", "1 task-enter Root/L/Sub:keep",
                "1 enter Root/L/Sub/Leaf changed", "1 task-enter Root/L/Sub/Leaf:succeed"), at(unreal, 1));
        assertTrue(seed(restart, "{'ticks': 1}").contains("1 tree succeeded"));
    }

    // ---- U3: completed states are entered again as new -------------------------------------------

    @Test
    void u3ADelayWithoutReselectThatSelectsItselfAgainIsEnteredAgainAsChanged() {
        String self = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'W', 'tasks': [{'type': 'delay',"
                + " 'duration': 0.5, 'reselect': false}], 'transitions': [{'trigger': 'onStateCompleted', 'to': 'W'}]}]}}";
        String scenario = "{'ticks': 6, 'dt': 0.25}";
        List<String> unreal = unreal(self, scenario);
        assertEquals(List.of("2 transition Root/W -> Root/W", "2 exit Root/W changed", "2 task-exit Root/W:delay",
                "2 enter Root/W changed", "2 task-enter Root/W:delay"), at(unreal, 2));
        // its timer starts afresh: two ticks of 0.25 s again
        assertEquals(List.of(2, 4, 6), transitionTicks(unreal));

        // seed: sustained (A12.2); the task is not entered again and its run-out timer stays run out (M1)
        List<String> seed = seed(self, scenario);
        assertEquals(List.of("2 transition Root/W -> Root/W", "2 exit Root/W sustained", "2 enter Root/W sustained"),
                at(seed, 2));
        assertEquals(List.of(2, 3, 4, 5, 6), transitionTicks(seed));
    }

    @Test
    void u3OnlyTheCompletedStateAndTheStatesBelowItAreEnteredAgain() {
        String parent = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'P', 'tasks': [{'type': 'delay',"
                + " 'name': 'long', 'duration': 10, 'reselect': false}], 'children': [{'name': 'W', 'tasks': [{'type': 'delay',"
                + " 'duration': 0.5, 'reselect': false}], 'transitions': [{'trigger': 'onStateCompleted', 'to': 'P'}]}]}]}}";
        // W completed (depth 2) and selects its parent: P (depth 1) stays, sustained; W is entered again
        assertEquals(List.of("2 transition Root/P/W -> Root/P", "2 exit Root/P/W changed", "2 task-exit Root/P/W:delay",
                "2 exit Root/P sustained", "2 enter Root/P sustained", "2 enter Root/P/W changed",
                "2 task-enter Root/P/W:delay"), at(unreal(parent, "{'ticks': 2, 'dt': 0.25}"), 2));
        assertEquals(List.of("2 transition Root/P/W -> Root/P", "2 exit Root/P/W sustained", "2 exit Root/P sustained",
                "2 enter Root/P sustained", "2 enter Root/P/W sustained"), at(seed(parent, "{'ticks': 2, 'dt': 0.25}"), 2));
    }

    // ---- U4: armed gates are not tested again ----------------------------------------------------

    private static final String DELAYED_EVENT = "{'name': 'T', 'root': {'name': 'Root', 'children': ["
            + "{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent', 'event': 'E1', 'to': 'B',"
            + " 'delay': 1.0}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]}}";

    @Test
    void u4OneEventArmsADelayedEventTransitionThatFiresWhenTheDelayRunsOut() {
        String once = "{'ticks': 8, 'dt': 0.25, 'inputs': [{'tick': 1, 'event': 'E1'}]}";
        List<String> unreal = unreal(DELAYED_EVENT, once);
        assertEquals(List.of("5 transition Root/A -> Root/B", "5 exit Root/A changed", "5 task-exit Root/A:run",
                "5 enter Root/B changed", "5 task-enter Root/B:run"), at(unreal, 5));
        assertEquals(List.of(5), transitionTicks(unreal));
        // a second event during the delay is ignored: the gate is not armed again
        assertEquals(unreal, unreal(DELAYED_EVENT,
                "{'ticks': 8, 'dt': 0.25, 'inputs': [{'tick': 1, 'event': 'E1'}, {'tick': 3, 'event': 'E1'}]}"));

        // seed: re-tested every tick, cancelled at tick 2 without the event: it never fires
        assertEquals(List.of(), transitionTicks(seed(DELAYED_EVENT, once)));
        // ... unless the event is there at every tick of the delay
        assertEquals(List.of(5), transitionTicks(seed(DELAYED_EVENT, "{'ticks': 8, 'dt': 0.25, 'inputs': ["
                + "{'tick': 1, 'event': 'E1'}, {'tick': 2, 'event': 'E1'}, {'tick': 3, 'event': 'E1'},"
                + " {'tick': 4, 'event': 'E1'}, {'tick': 5, 'event': 'E1'}]}")));
    }

    @Test
    void u4AnOpenedGateConsumesNoEvent() {
        // B succeeds on enter, so the transition rounds go on in the same tick: B's own onEvent E1 sees the
        // event of tick 5 that the armed transition did not consume
        String tree = DELAYED_EVENT.replace("{'name': 'B', 'tasks': [{'type': 'run'}]}",
                "{'name': 'B', 'tasks': [{'type': 'succeed', 'onEnter': true}], 'transitions': [{'trigger': 'onEvent',"
                        + " 'event': 'E1', 'to': 'C'}, {'trigger': 'onStateSucceeded', 'to': '@none'}]},"
                        + " {'name': 'C', 'tasks': [{'type': 'run'}]}");
        List<String> unreal = unreal(tree, "{'ticks': 6, 'dt': 0.25, 'inputs': [{'tick': 1, 'event': 'E1'},"
                + " {'tick': 5, 'event': 'E1'}]}");
        assertTrue(unreal.containsAll(List.of("5 transition Root/A -> Root/B", "5 transition Root/B -> Root/C")),
                String.join("\n", unreal));
        // seed, the event at every tick: the transition that fires consumes it, and B stays
        List<String> seed = seed(tree, "{'ticks': 6, 'dt': 0.25, 'inputs': [{'tick': 1, 'event': 'E1'},"
                + " {'tick': 2, 'event': 'E1'}, {'tick': 3, 'event': 'E1'}, {'tick': 4, 'event': 'E1'},"
                + " {'tick': 5, 'event': 'E1'}]}");
        assertTrue(seed.contains("5 transition Root/A -> Root/B"), String.join("\n", seed));
        assertFalse(seed.contains("5 transition Root/B -> Root/C"), String.join("\n", seed));
    }

    @Test
    void u4AGateIsNotCancelledWhenItsConditionStopsHolding() {
        String tree = "{'name': 'T', 'parameters': {'b1': {'type': 'bool', 'default': false}}, 'root': {'name': 'Root',"
                + " 'children': [{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', 'to': 'B',"
                + " 'delay': 1.0, 'conditions': [{'type': 'bool', 'param': 'b1'}]}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]}}";
        String scenario = "{'ticks': 8, 'dt': 0.25, 'inputs': [{'tick': 1, 'set': {'b1': true}},"
                + " {'tick': 2, 'set': {'b1': false}}]}";
        assertEquals(List.of(5), transitionTicks(unreal(tree, scenario)));
        assertEquals(List.of(), transitionTicks(seed(tree, scenario)));
    }

    @Test
    void u4AGateWhoseTargetCannotBeSelectedWhenItOpensIsSpent() {
        String tree = "{'name': 'T', 'parameters': {'b1': {'type': 'bool', 'default': false}}, 'root': {'name': 'Root',"
                + " 'children': [{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', 'to': 'B',"
                + " 'delay': 1.0}]}, {'name': 'B', 'enterConditions': [{'type': 'bool', 'param': 'b1'}],"
                + " 'tasks': [{'type': 'run'}]}]}}";
        String scenario = "{'ticks': 12, 'dt': 0.25, 'inputs': [{'tick': 7, 'set': {'b1': true}}]}";
        // armed at 1, opens at 5 (B cannot be selected: spent, then evaluated afresh in the same scan and
        // armed again), opens again and fires at 9
        assertEquals(List.of(9), transitionTicks(unreal(tree, scenario)));
        // seed: the open gate stays open and the transition is tried at every tick: it fires as soon as B can be selected
        assertEquals(List.of(7), transitionTicks(seed(tree, scenario)));
    }

    // ---- U5: tasks tick until one fails --------------------------------------------------------

    private static final String PARENT_AND_CHILD = "{'name': 'T', 'root': {'name': 'Root', 'children': ["
            + "{'name': 'P', 'tasks': [{'type': 'PARENT', 'afterTicks': 1}], 'transitions': [{'trigger': 'onStateSucceeded',"
            + " 'to': 'PSucceeded'}, {'trigger': 'onStateFailed', 'to': 'PFailed'}], 'children': [{'name': 'C', 'tasks': ["
            + "{'type': 'CHILD', 'afterTicks': 1}], 'transitions': [{'trigger': 'onStateFailed', 'to': 'CFailed'},"
            + " {'trigger': 'onStateSucceeded', 'to': 'CSucceeded'}]}]},"
            + " {'name': 'PSucceeded', 'tasks': [{'type': 'run'}]}, {'name': 'PFailed', 'tasks': [{'type': 'run'}]},"
            + " {'name': 'CSucceeded', 'tasks': [{'type': 'run'}]}, {'name': 'CFailed', 'tasks': [{'type': 'run'}]}]}}";

    /** The transition of tick 1 when P's task reports {@code parent} and C's {@code child} in that tick. */
    private static String firstTransition(String rules, String parent, String child) {
        return at(run(rules, PARENT_AND_CHILD.replace("PARENT", parent).replace("CHILD", child), "{'ticks': 1}"), 1).get(0);
    }

    @Test
    void u5TheShallowestCompletedStateDecidesAndAFailureStopsTheTicking() {
        // the parent succeeds, the child fails in the same tick: the parent, the shallowest state that
        // completed, decides with its own status; the child's onStateFailed lies below it
        assertEquals("1 transition Root/P/C -> Root/PSucceeded", firstTransition(UNREAL, "succeed", "fail"));
        // the parent fails: the child's task after it is not reached
        assertEquals("1 transition Root/P/C -> Root/PFailed", firstTransition(UNREAL, "fail", "succeed"));
        assertEquals("1 transition Root/P/C -> Root/PSucceeded", firstTransition(UNREAL, "succeed", "succeed"));
        // seed: the first task to complete (root to leaf) decides, and the child's is not reached
        assertEquals("1 transition Root/P/C -> Root/PSucceeded", firstTransition(null, "succeed", "fail"));
        assertEquals("1 transition Root/P/C -> Root/PFailed", firstTransition(null, "fail", "succeed"));
        assertEquals("1 transition Root/P/C -> Root/PSucceeded", firstTransition(null, "succeed", "succeed"));
    }

    @Test
    void u5AFailureWinsOverASuccessOfTheSameState() {
        String tree = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'A', 'tasks': [{'type': 'succeed',"
                + " 'afterTicks': 1}, {'type': 'fail', 'afterTicks': 1}], 'transitions': [{'trigger': 'onStateSucceeded',"
                + " 'to': 'Won'}, {'trigger': 'onStateFailed', 'to': 'Lost'}]}, {'name': 'Won', 'tasks': [{'type': 'run'}]},"
                + " {'name': 'Lost', 'tasks': [{'type': 'run'}]}]}}";
        assertEquals("1 transition Root/A -> Root/Lost", at(unreal(tree, "{'ticks': 1}"), 1).get(0));
        // seed: the first task to complete decides
        assertEquals("1 transition Root/A -> Root/Won", at(seed(tree, "{'ticks': 1}"), 1).get(0));
    }

    @Test
    void u5TheTasksAfterACompletedOneStillTick() {
        // tickSend sends E2 at each of its ticks: reached after succeed completed, its event is seen by the scan
        String tree = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'A', 'tasks': [{'type': 'succeed',"
                + " 'afterTicks': 1}, {'type': 'tickSend', 'tag': 'E2'}], 'transitions': [{'trigger': 'onEvent', 'event': 'E2',"
                + " 'to': 'Heard'}, {'trigger': 'onStateSucceeded', 'to': 'Done'}]}, {'name': 'Heard', 'tasks': [{'type': 'run'}]},"
                + " {'name': 'Done', 'tasks': [{'type': 'run'}]}]}}";
        assertEquals("1 transition Root/A -> Root/Heard", at(unreal(tree, "{'ticks': 1}"), 1).get(0));
        assertEquals("1 transition Root/A -> Root/Done", at(seed(tree, "{'ticks': 1}"), 1).get(0));
    }

    // ---- U6: a path without tasks succeeds -------------------------------------------------------

    private static final String TASKLESS = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'Idle',"
            + " 'transitions': [{'trigger': 'onStateSucceeded', 'to': 'Done'}]}, {'name': 'Done', 'tasks': [{'type': 'run'}]}]}}";

    @Test
    void u6ATasklessLeafCompletesAtTheFirstTick() {
        List<String> unreal = unreal(TASKLESS, "{'ticks': 3}");
        assertEquals(List.of("1 transition Root/Idle -> Root/Done", "1 exit Root/Idle changed", "1 enter Root/Done changed",
                "1 task-enter Root/Done:run"), at(unreal, 1));
        assertEquals(List.of(1), transitionTicks(unreal));
        // seed: such a path never completes
        assertEquals(List.of(), transitionTicks(seed(TASKLESS, "{'ticks': 3}")));
    }

    @Test
    void u6WithoutATransitionATasklessPathRestartsFromTheRootAtEveryTick() {
        List<String> unreal = unreal("{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'Idle'}]}}", "{'ticks': 3}");
        assertEquals(List.of("2 transition Root/Idle -> Root", "2 exit Root/Idle changed", "2 exit Root sustained",
                "2 enter Root sustained", "2 enter Root/Idle changed"), at(unreal, 2));
        assertEquals(List.of(1, 2, 3), transitionTicks(unreal));
    }

    @Test
    void u6ATaskOnThePathKeepsThePathRunningAGlobalTaskDoesNot() {
        // a task on the root: the path has a task (U6 does not apply; the run task never completes)
        String rootTask = TASKLESS.replace("{'name': 'Root', 'children'",
                "{'name': 'Root', 'tasks': [{'type': 'run'}], 'children'");
        assertEquals(List.of(), transitionTicks(unreal(rootTask, "{'ticks': 3}")));
        // a global task does not count: the path is still task-less (Unreal counts the states' tasks)
        String global = TASKLESS.replace("{'name': 'T', 'root'",
                "{'name': 'T', 'globalTasks': [{'type': 'run', 'name': 'g'}], 'root'");
        assertEquals(List.of(1), transitionTicks(unreal(global, "{'ticks': 3}")));
        // a disabled task is absent (N3): the path is task-less
        String disabled = TASKLESS.replace("{'name': 'Idle',", "{'name': 'Idle', 'tasks': [{'type': 'run', 'enabled': false}],");
        assertEquals(List.of(1), transitionTicks(unreal(disabled, "{'ticks': 3}")));
    }

    // ---- found by RandomDifferentialTest -----------------------------------------------------------

    /**
     * U3 with a required event (V3, V5): S has a required event and completes (its task succeeds);
     * its transition selects its own child A. S stays on the path above the target, and U3 enters
     * it again as changed: it keeps the event it was entered with and needs none in the window
     * (section 20, U3). Found by RandomDifferentialTest: the reference interpreter threw here.
     */
    @Test
    void aStateWithARequiredEventKeptAboveTheTargetIsEnteredAgainWithItsEvent() {
        String tree = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'Idle', 'tasks': [{'type': 'run'}],"
                + " 'transitions': [{'trigger': 'onEvent', 'event': 'E1', 'to': 'S'}]}, {'name': 'S', 'requiredEvent':"
                + " {'tag': 'E1'}, 'tasks': [{'type': 'succeed', 'afterTicks': 1}], 'transitions': [{'trigger':"
                + " 'onStateSucceeded', 'to': 'A'}], 'children': [{'name': 'A', 'tasks': [{'type': 'run'}]}]}]}}";
        List<String> unreal = unreal(tree, "{'ticks': 3, 'inputs': [{'tick': 1, 'event': 'E1'}]}");
        for (int tick = 2; tick <= 3; tick++) {
            assertTrue(unreal.contains(tick + " transition Root/S/A -> Root/S/A"), String.join("\n", unreal));
            assertTrue(unreal.contains(tick + " exit Root/S changed"), String.join("\n", unreal));
            assertTrue(unreal.contains(tick + " enter Root/S changed"), String.join("\n", unreal));
        }
    }
}
