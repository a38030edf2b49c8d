package dev.crowdtree.statetree.reference;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.definition.StateTreeBuilder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.node.RunStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reference interpreter's trickier rules, each against a trace derived by hand from the seed
 * code and docs/SEMANTICS.md.
 */
class ReferenceInterpreterTest {

    private static void assertTrace(List<String> actual, String... expected) {
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    private static final String[] START_A = {
            "0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:run"};

    private static String[] concat(String[] a, String... b) {
        List<String> l = new ArrayList<>(List.of(a));
        l.addAll(List.of(b));
        return l.toArray(new String[0]);
    }

    // ---- gates ----------------------------------------------------------------------------------

    @Test
    void gatedTransitionWaitsForItsDelayThenFires() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run")).transition(on("onTick").to("B").delay(0.5, 0)))
                .child(state("B").task(node("run")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        List<String> lines = new ArrayList<>();
        r.setTrace((a, l) -> lines.add(l));
        r.startAll(0);
        r.tickAll(1, 0.25f);
        // armed at tick 1 with the full delay: no transition yet
        assertEquals(0, r.gatedTransitionIndex(0));
        assertEquals(0.5f, r.gatedTransitionTime(0));
        r.tickAll(2, 0.25f);
        assertEquals(0.25f, r.gatedTransitionTime(0));
        assertEquals("Root/A", r.activePath(0));
        r.tickAll(3, 0.25f); // 0.25 - 0.25 = 0: not > 0, the gate opens
        assertEquals(ReferenceInterpreter.INVALID, r.gatedTransitionIndex(0)); // reset by ExitState
        assertTrace(lines, concat(START_A,
                "3 transition Root/A -> Root/B",
                "3 exit Root/A changed",
                "3 task-exit Root/A:run",
                "3 enter Root/B changed",
                "3 task-enter Root/B:run"));
    }

    @Test
    void gateDelayIsDrawnFromTheAgentsGateStream() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run")).transition(on("onTick").to("@none"))
                        .transition(on("onTick").to("B").delay(1.0, 0.5)))
                .child(state("B").task(node("run")))).build());
        // The first transition (@none) masks the second: use a tree where the gated one comes first.
        CompiledStateTree g = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run")).transition(on("onTick").to("B").delay(1.0, 0.5)))
                .child(state("B").task(node("run")))).build());
        assertEquals(2, t.transitionCount);
        ReferenceInterpreter r = new ReferenceInterpreter(g, 3, 42);
        r.startAll(0);
        r.tickAll(1, 0.25f);
        for (int a = 0; a < 3; a++) {
            float u = CounterRng.uniform(42, a, 1, CompiledStateTree.GATE_STREAM_BASE + 0);
            float expected = Math.max(0f, 1.0f + 0.5f * (2f * u - 1f));
            assertEquals(expected, r.gatedTransitionTime(a));
            assertTrue(expected >= 0.5f && expected <= 1.5f);
        }
        // @none first: the gated transition is never reached, no gate is armed
        ReferenceInterpreter masked = new ReferenceInterpreter(t, 1, 42);
        masked.startAll(0);
        masked.tickAll(1, 0.25f);
        assertEquals(ReferenceInterpreter.INVALID, masked.gatedTransitionIndex(0));
    }

    @Test
    void gateIsCancelledWhenItsConditionDropsAndReArmedWithTheFullDelay() {
        CompiledStateTree t = TestNodes.compile(tree("T").param("go", "bool", true).root(state("Root")
                .child(state("A").task(node("run")).transition(on("onTick").to("B").delay(0.5, 0)
                        .when(node("bool").with("param", "go"))))
                .child(state("B").task(node("run")))).build());
        List<String> trace = TestNodes.run(t, "{\"ticks\": 6, \"dt\": 0.25, \"inputs\": ["
                + "{\"tick\": 2, \"set\": {\"go\": false}}, {\"tick\": 3, \"set\": {\"go\": true}}]}");
        // armed at 1 (0.5), cancelled at 2, re-armed at 3 (0.5), 0.25 at 4, fires at 5
        assertTrace(trace, concat(START_A,
                "5 transition Root/A -> Root/B",
                "5 exit Root/A changed",
                "5 task-exit Root/A:run",
                "5 enter Root/B changed",
                "5 task-enter Root/B:run"));
    }

    @Test
    void pendingGateBlocksTheRestOfTheScanIncludingAncestors() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .transition(on("onTick").to("C"))
                .child(state("A").task(node("run")).transition(on("onTick").to("B").delay(0.5, 0)))
                .child(state("B").task(node("run")))
                .child(state("C").task(node("run")))).build());
        List<String> trace = TestNodes.run(t, "{\"ticks\": 4, \"dt\": 0.25}");
        // ticks 1-2: A's gate waits, so Root's onTick (checked after A's) is never reached (Q-A5)
        assertTrace(trace, concat(START_A,
                "3 transition Root/A -> Root/B",
                "3 exit Root/A changed",
                "3 task-exit Root/A:run",
                "3 enter Root/B changed",
                "3 task-enter Root/B:run",
                "4 transition Root/B -> Root/C",
                "4 exit Root/B changed",
                "4 task-exit Root/B:run",
                "4 enter Root/C changed",
                "4 task-enter Root/C:run"));
    }

    @Test
    void exitStateCancelsAPendingGate() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .transition(on("onTick").to("C").delay(0.5, 0))
                .child(state("A").task(node("run")).transition(on("onEvent").event("Go").to("B")))
                .child(state("B").task(node("run")))
                .child(state("C").task(node("run")))).build());
        List<String> trace = TestNodes.run(t, "{\"ticks\": 5, \"dt\": 0.25, \"inputs\": [{\"tick\": 2, \"event\": \"Go\"}]}");
        // gate armed at 1; A -> B at 2 resets it; re-armed at 3 with 0.5; fires at 5 (not 3)
        assertTrace(trace, concat(START_A,
                "2 transition Root/A -> Root/B",
                "2 exit Root/A changed",
                "2 task-exit Root/A:run",
                "2 enter Root/B changed",
                "2 task-enter Root/B:run",
                "5 transition Root/B -> Root/C",
                "5 exit Root/B changed",
                "5 task-exit Root/B:run",
                "5 enter Root/C changed",
                "5 task-enter Root/C:run"));
    }

    // ---- rounds ---------------------------------------------------------------------------------

    @Test
    void atMostFiveTransitionsPerTickThenTheNextTickContinues() {
        StateTreeBuilder.State root = state("Root");
        for (int i = 1; i <= 6; i++) {
            root.child(state("S" + i).task(node("fail").with("onEnter", true))
                    .transition(on("onStateFailed").to("@next")));
        }
        root.child(state("S7").task(node("run")));
        CompiledStateTree t = TestNodes.compile(tree("T").root(root).build());
        List<String> trace = TestNodes.run(t, "{\"ticks\": 3}");
        List<String> expected = new ArrayList<>(List.of("0 start", "0 enter Root changed",
                "0 enter Root/S1 changed", "0 task-enter Root/S1:fail failed"));
        for (int i = 1; i <= 6; i++) {
            int tick = i <= 5 ? 1 : 2;
            expected.add(tick + " transition Root/S" + i + " -> Root/S" + (i + 1));
            expected.add(tick + " exit Root/S" + i + " changed");
            expected.add(tick + " task-exit Root/S" + i + ":fail");
            expected.add(tick + " enter Root/S" + (i + 1) + " changed");
            expected.add(tick + " task-enter Root/S" + (i + 1) + (i + 1 == 7 ? ":run" : ":fail failed"));
        }
        assertTrace(trace, expected.toArray(new String[0]));
    }

    // ---- events ---------------------------------------------------------------------------------

    private static CompiledStateTree consumptionTree() {
        return TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run")).transition(on("onEvent").event("X").to("B")))
                .child(state("B").task(node("succeed").with("onEnter", true))
                        .transition(on("onEvent").event("X").to("C"))
                        .transition(on("onStateCompleted").to("D")))
                .child(state("C").task(node("run")))
                .child(state("D").task(node("run")))).build());
    }

    private static final String[] A_TO_B_SUCCEEDS = {
            "1 transition Root/A -> Root/B",
            "1 exit Root/A changed",
            "1 task-exit Root/A:run",
            "1 enter Root/B changed",
            "1 task-enter Root/B:succeed"};

    @Test
    void theEventThatFiresATransitionIsConsumed() {
        List<String> trace = TestNodes.run(consumptionTree(), "{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"event\": \"X\"}]}");
        // round 1 consumes X; B completes on enter; round 2 has no X left, so completion -> D
        assertTrace(trace, concat(concat(START_A, A_TO_B_SUCCEEDS),
                "1 transition Root/B -> Root/D",
                "1 exit Root/B changed",
                "1 task-exit Root/B:succeed",
                "1 enter Root/D changed",
                "1 task-enter Root/D:run"));
    }

    @Test
    void aSecondEventOfTheSameTagFiresTheNextRoundsTransition() {
        List<String> trace = TestNodes.run(consumptionTree(), "{\"ticks\": 1, \"inputs\": ["
                + "{\"tick\": 1, \"event\": \"X\"}, {\"tick\": 1, \"event\": \"X\"}]}");
        assertTrace(trace, concat(concat(START_A, A_TO_B_SUCCEEDS),
                "1 transition Root/B -> Root/C",
                "1 exit Root/B changed",
                "1 task-exit Root/B:succeed",
                "1 enter Root/C changed",
                "1 task-enter Root/C:run"));
    }

    @Test
    void eventsSentDuringStartAreSeenAtTickOne() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("sendEvent").with("tag", "Ping")).task(node("run"))
                        .transition(on("onEvent").event("Ping").to("B")))
                .child(state("B").task(node("run")))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 2}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed",
                "0 task-enter Root/A:sendEvent", "0 task-enter Root/A:run",
                "1 transition Root/A -> Root/B",
                "1 exit Root/A changed",
                "1 task-exit Root/A:run",
                "1 task-exit Root/A:sendEvent",
                "1 enter Root/B changed",
                "1 task-enter Root/B:run");
    }

    @Test
    void eventsSentDuringEnterStateAreSeenByTheNextRound() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run")).transition(on("onEvent").event("Go").to("B")))
                .child(state("B").task(node("sendEvent").with("tag", "Ping")).task(node("succeed").with("onEnter", true))
                        .transition(on("onEvent").event("Ping").to("C"))
                        .transition(on("onStateCompleted").to("D")))
                .child(state("C").task(node("run")))
                .child(state("D").task(node("run")))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 2, \"inputs\": [{\"tick\": 1, \"event\": \"Go\"}]}"), concat(START_A,
                "1 transition Root/A -> Root/B",
                "1 exit Root/A changed",
                "1 task-exit Root/A:run",
                "1 enter Root/B changed",
                "1 task-enter Root/B:sendEvent",
                "1 task-enter Root/B:succeed",
                "1 transition Root/B -> Root/C",
                "1 exit Root/B changed",
                "1 task-exit Root/B:succeed",
                "1 task-exit Root/B:sendEvent",
                "1 enter Root/C changed",
                "1 task-enter Root/C:run"));
    }

    @Test
    void eventsSentDuringTheLastRoundAreSeenNextTick() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run")).transition(on("onEvent").event("Go").to("B")))
                .child(state("B").task(node("sendEvent").with("tag", "Ping")).task(node("run"))
                        .transition(on("onEvent").event("Ping").to("C")))
                .child(state("C").task(node("run")))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 3, \"inputs\": [{\"tick\": 1, \"event\": \"Go\"}]}"), concat(START_A,
                "1 transition Root/A -> Root/B",
                "1 exit Root/A changed",
                "1 task-exit Root/A:run",
                "1 enter Root/B changed",
                "1 task-enter Root/B:sendEvent",
                "1 task-enter Root/B:run",
                "2 transition Root/B -> Root/C",
                "2 exit Root/B changed",
                "2 task-exit Root/B:run",
                "2 task-exit Root/B:sendEvent",
                "2 enter Root/C changed",
                "2 task-enter Root/C:run"));
    }

    @Test
    void eventsSentDuringExitStateAreSeenByTheNextRound() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("exitSend").with("tag", "Ping")).task(node("run"))
                        .transition(on("onEvent").event("Go").to("B")))
                .child(state("B").task(node("fail").with("onEnter", true))
                        .transition(on("onEvent").event("Ping").to("C")))
                .child(state("C").task(node("run")))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"event\": \"Go\"}]}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed",
                "0 task-enter Root/A:exitSend", "0 task-enter Root/A:run",
                "1 transition Root/A -> Root/B",
                "1 exit Root/A changed",
                "1 task-exit Root/A:run",
                "1 task-exit Root/A:exitSend",
                "1 enter Root/B changed",
                "1 task-enter Root/B:fail failed",
                "1 transition Root/B -> Root/C",
                "1 exit Root/B changed",
                "1 task-exit Root/B:fail",
                "1 enter Root/C changed",
                "1 task-enter Root/C:run");
    }

    @Test
    void eventsAreNotKeptBeyondTheTickTheyAreSeenIn() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("succeed")).transition(on("onStateCompleted").to("B")))
                .child(state("B").task(node("run")).transition(on("onEvent").event("Late").to("C")))
                .child(state("C").task(node("run")))).build());
        // "Late" arrives at tick 1 while A is active; B is entered in tick 1 but no second round runs
        assertTrace(TestNodes.run(t, "{\"ticks\": 3, \"inputs\": [{\"tick\": 1, \"event\": \"Late\"}]}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:succeed",
                "1 transition Root/A -> Root/B",
                "1 exit Root/A changed",
                "1 task-exit Root/A:succeed",
                "1 enter Root/B changed",
                "1 task-enter Root/B:run");
    }

    @Test
    void eventsSentFromATaskTickAreSeenInTheSameTick() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("tickSend").with("tag", "Ping"))
                        .transition(on("onEvent").event("Ping").to("B")))
                .child(state("B").task(node("run")))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 1}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:tickSend",
                "1 transition Root/A -> Root/B",
                "1 exit Root/A changed",
                "1 task-exit Root/A:tickSend",
                "1 enter Root/B changed",
                "1 task-enter Root/B:run");
    }

    @Test
    void eventsSentToAnotherAgentArriveNextTick() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("tickSendNext").with("tag", "Ping").with("agents", 2))
                        .transition(on("onEvent").event("Ping").to("B")))
                .child(state("B").task(node("run")))).build());
        List<String> expected = new ArrayList<>();
        for (int a = 0; a < 2; a++) {
            expected.addAll(List.of("a" + a + " 0 start", "a" + a + " 0 enter Root changed",
                    "a" + a + " 0 enter Root/A changed", "a" + a + " 0 task-enter Root/A:tickSendNext"));
        }
        for (int a = 0; a < 2; a++) {
            expected.addAll(List.of("a" + a + " 2 transition Root/A -> Root/B",
                    "a" + a + " 2 exit Root/A changed",
                    "a" + a + " 2 task-exit Root/A:tickSendNext",
                    "a" + a + " 2 enter Root/B changed",
                    "a" + a + " 2 task-enter Root/B:run"));
        }
        assertTrace(TestNodes.run(t, "{\"ticks\": 2, \"agents\": 2}"), expected.toArray(new String[0]));
    }

    @Test
    void eventsReachingATreeThatIsNotRunningAreDropped() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run")).transition(on("onEvent").event("Go").to("B")))
                .child(state("B").task(node("run")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        r.startAll(0);
        r.stop(0, 1);
        r.sendEvent(0, "Go", 0f, false);
        assertEquals(1, r.queuedEventCount(0));
        r.tickAll(1, 0.1f);
        assertEquals(0, r.queuedEventCount(0));
        assertEquals(RunStatus.STOPPED, r.treeStatus(0));
    }

    // ---- enter / exit ---------------------------------------------------------------------------

    @Test
    void reselectFlagDecidesWhichTasksSeeASustainedSelfTransition() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("run").named("keep").reselect(false)).task(node("run").named("again"))
                        .transition(on("onEvent").event("Again").to("A")))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"event\": \"Again\"}]}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed",
                "0 task-enter Root/A:keep", "0 task-enter Root/A:again",
                "1 transition Root/A -> Root/A",
                "1 exit Root/A sustained",
                "1 task-exit Root/A:again",
                "1 enter Root/A sustained",
                "1 task-enter Root/A:again");
    }

    @Test
    void enterStateFailureCutsThePathAndOnlyEnteredTasksAreExited() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("P").task(node("run").named("t1")).task(node("fail").named("t2").with("onEnter", true))
                        .task(node("run").named("t3"))
                        .transition(on("onStateFailed").to("Q"))
                        .child(state("C").task(node("run"))))
                .child(state("Q").task(node("run")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        List<String> lines = new ArrayList<>();
        r.setTrace((a, l) -> lines.add(l));
        r.startAll(0);
        assertEquals("Root/P", r.activePath(0));
        assertEquals(RunStatus.FAILED, r.lastTickStatus(0));
        assertEquals(1, r.enterStateFailedTaskIndex(0));
        r.tickAll(1, 0.1f);
        assertTrace(lines,
                "0 start", "0 enter Root changed", "0 enter Root/P changed",
                "0 task-enter Root/P:t1", "0 task-enter Root/P:t2 failed",
                "1 transition Root/P -> Root/Q",
                "1 exit Root/P changed",
                "1 task-exit Root/P:t2",
                "1 task-exit Root/P:t1",
                "1 enter Root/Q changed",
                "1 task-enter Root/Q:run");
        assertEquals(ReferenceInterpreter.INVALID_TASK_INDEX, r.enterStateFailedTaskIndex(0));
        assertEquals(2, r.stateChangeCount(0));
    }

    @Test
    void succeededOnEnterCompletesTheStateAtOnce() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("succeed").with("onEnter", true)).task(node("run"))
                        .transition(on("onStateSucceeded").to("B")))
                .child(state("B").task(node("run")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        r.startAll(0);
        assertEquals(RunStatus.SUCCEEDED, r.lastTickStatus(0));
        r.tickAll(1, 0.1f);
        assertEquals("Root/B", r.activePath(0));
    }

    @Test
    void aLaterFailureOnEnterWinsOverAnEarlierSuccess() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("succeed").with("onEnter", true)).task(node("fail").with("onEnter", true))
                        .transition(on("onStateSucceeded").to("B"))
                        .transition(on("onStateFailed").to("C")))
                .child(state("B").task(node("run")))
                .child(state("C").task(node("run")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        r.startAll(0);
        assertEquals(RunStatus.FAILED, r.lastTickStatus(0));
        r.tickAll(1, 0.1f);
        assertEquals("Root/C", r.activePath(0));
    }

    // ---- restart from root ----------------------------------------------------------------------

    @Test
    void completedStateWithoutTransitionRestartsFromRootSustained() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("succeed")))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 1}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:succeed",
                "1 transition Root/A -> Root",
                "1 exit Root/A sustained",
                "1 task-exit Root/A:succeed",
                "1 exit Root sustained",
                "1 enter Root sustained",
                "1 enter Root/A sustained",
                "1 task-enter Root/A:succeed");
    }

    @Test
    void restartFromRootThatFindsNoStateFailsTheTreeCleanly() {
        CompiledStateTree t = TestNodes.compile(tree("T").param("ok", "bool", true).root(state("Root")
                .child(state("A").enterCondition(node("bool").with("param", "ok")).task(node("succeed")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        List<String> lines = new ArrayList<>();
        r.setTrace((a, l) -> lines.add(l));
        r.startAll(0);
        r.setParameter(0, "ok", 0);
        r.tickAll(1, 0.1f);
        r.tickAll(2, 0.1f);
        assertTrace(lines,
                "0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:succeed",
                "1 transition Root/A -> Root",
                "1 exit Root/A changed",
                "1 task-exit Root/A:succeed",
                "1 exit Root changed",
                "1 tree failed");
        assertEquals(RunStatus.FAILED, r.treeStatus(0));
        assertEquals("", r.activePath(0));
    }

    @Test
    void noneTransitionOnACompletedStateBlocksTheRestartAndTheStateStaysStuck() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .transition(on("onStateCompleted").to("B"))
                .child(state("A").task(node("succeed")).transition(on("onStateCompleted").to("@none")))
                .child(state("B").task(node("run")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        r.startAll(0);
        for (int k = 1; k <= 4; k++) {
            r.tickAll(k, 0.1f);
        }
        // Q-A4 kept: @none masks Root's transition and the restart; tasks are no longer ticked
        assertEquals("Root/A", r.activePath(0));
        assertEquals(RunStatus.SUCCEEDED, r.lastTickStatus(0));
        assertEquals(RunStatus.RUNNING, r.treeStatus(0));
        // and every runtime agrees: nothing happens after the start
        assertTrace(TestNodes.run(t, "{\"ticks\": 4}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:succeed");
    }

    @Test
    void pendingGateOnACompletedStateAlsoBlocksTheRestart() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("A").task(node("succeed")).transition(on("onStateCompleted").to("B").delay(0.5, 0)))
                .child(state("B").task(node("run")))).build());
        // tick 1: A completes, its gated completion transition arms the gate (0.5): no restart from
        // root; tick 2: 0.25, still waiting; tick 3: the gate opens
        assertTrace(TestNodes.run(t, "{\"ticks\": 3, \"dt\": 0.25}"),
                "0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:succeed",
                "3 transition Root/A -> Root/B",
                "3 exit Root/A changed",
                "3 task-exit Root/A:succeed",
                "3 enter Root/B changed",
                "3 task-enter Root/B:run");
    }

    // ---- selection ------------------------------------------------------------------------------

    @Test
    void inBetweenAncestorsAreNotTestedButTheTargetAndItsChildrenAre() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("Peaceful").child(state("Wander").task(node("run"))
                        .transition(on("onEvent").event("Threat").to("Flee"))))
                .child(state("Danger").enterCondition(node("counted").named("dangerGate").with("value", false))
                        .child(state("Flee").enterCondition(node("counted").named("fleeGate").with("value", true))
                                .task(node("run"))))).build());
        for (GoldenTraceTest.NamedRuntime r : GoldenTraceTest.RUNTIMES) {
            TestNodes.EVALUATIONS.clear();
            List<String> trace = TestNodes.run(t, "{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"event\": \"Threat\"}]}",
                    r.factory());
            assertEquals("1 transition Root/Peaceful/Wander -> Root/Danger/Flee", trace.get(5), r.name());
            assertEquals("1 enter Root/Danger changed", trace.get(9), r.name());
            assertEquals(0, TestNodes.evaluations("dangerGate"), r.name());
            assertEquals(1, TestNodes.evaluations("fleeGate"), r.name());
        }
    }

    @Test
    void tryEnterStateEndsThePathAndItsTasksRun() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root")
                .child(state("P").tryEnter().task(node("run"))
                        .transition(on("onEvent").event("Go").to("C"))
                        .child(state("C").task(node("run"))))).build());
        assertTrace(TestNodes.run(t, "{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"event\": \"Go\"}]}"),
                "0 start", "0 enter Root changed", "0 enter Root/P changed", "0 task-enter Root/P:run",
                "1 transition Root/P -> Root/P/C",
                "1 enter Root/P/C changed",
                "1 task-enter Root/P/C:run");
    }

    @Test
    void stopExitsEveryStateChangedAndStoppingAgainDoesNothing() {
        CompiledStateTree t = TestNodes.compile(tree("T").root(state("Root").task(node("run").named("r"))
                .child(state("A").task(node("run")))).build());
        ReferenceInterpreter r = new ReferenceInterpreter(t, 1, 1);
        List<String> lines = new ArrayList<>();
        r.setTrace((a, l) -> lines.add(l));
        r.startAll(0);
        r.stop(0, 3);
        r.stop(StateTreeRuntime.ALL, 4);
        r.startAll(5);
        r.startAll(6);
        assertTrace(lines,
                "0 start", "0 enter Root changed", "0 task-enter Root:r", "0 enter Root/A changed",
                "0 task-enter Root/A:run",
                "3 exit Root/A changed", "3 task-exit Root/A:run", "3 exit Root changed", "3 task-exit Root:r",
                "3 tree stopped",
                "5 start", "5 enter Root changed", "5 task-enter Root:r", "5 enter Root/A changed",
                "5 task-enter Root/A:run",
                "6 exit Root/A changed", "6 task-exit Root/A:run", "6 exit Root changed", "6 task-exit Root:r",
                "6 tree stopped",
                "6 start", "6 enter Root changed", "6 task-enter Root:r", "6 enter Root/A changed",
                "6 task-enter Root/A:run");
    }

    @Test
    void anUnknownParameterIsTheSameErrorInBothRuntimes() throws Exception {
        CompiledStateTree t = dev.crowdtree.statetree.compiler.StateTreeCompiler.withBuiltins()
                .compile(dev.crowdtree.statetree.fixtures.CrowdTrees.napper());
        String expected = "tree 'Napper' has no parameter 'q'; its parameters are [p]";
        try (ReferenceInterpreter ref = new ReferenceInterpreter(t, 2, 1);
             StateTreeRuntime batched = dev.crowdtree.statetree.exec.StateTreeSystem.create(t, 2, 1, 1)) {
            for (StateTreeRuntime rt : List.of(ref, batched)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rt.setParameter(0, "q", 1.0));
                assertEquals(expected, e.getMessage(), rt.getClass().getSimpleName());
            }
        }
    }
}
