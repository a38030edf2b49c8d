package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.RunStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Global tasks (docs/SEMANTICS.md, rules G1-G3) beyond the golden cases, alike on every runtime: a
 * second Start re-enters them (after stopping a running tree), their timers keep counting while a
 * completed state is stuck, and a tree whose only waiting is a global timer lets its agents sleep.
 */
class GlobalTasksTest {
    private static CompiledStateTree compile(String json) throws Exception {
        return StateTreeJson.compile("global.json", json.replace('\'', '"'), TestNodes.compiler());
    }

    /** Start, two ticks, Start again (the tree runs: it is stopped first), a tick, Stop, Start again. */
    private static List<String> restarts(CompiledStateTree tree, StateTreeRuntime rt) {
        List<String> lines = new ArrayList<>();
        try (rt) {
            rt.setTrace((agent, line) -> lines.add(line));
            rt.startAll(0);
            rt.tickAll(1, 1f);
            rt.tickAll(2, 1f);
            rt.startAll(3);
            rt.tickAll(4, 1f);
            rt.stop(StateTreeRuntime.ALL, 5);
            rt.startAll(6);
            rt.tickAll(7, 1f);
        }
        return lines;
    }

    @Test
    void aNewStartEntersTheGlobalTasksAgainAfterStoppingARunningTree() throws Exception {
        CompiledStateTree tree = compile("{'name': 'Again', 'globalTasks': [{'type': 'counter', 'name': 'clock'},"
                + " {'type': 'run', 'name': 'keep'}], 'root': {'name': 'Root', 'tasks': [{'type': 'run'}],"
                + " 'transitions': [{'trigger': 'onTick', 'to': '@succeeded', 'conditions': [{'type': 'compare',"
                + " 'input': {'task': 'clock.count'}, 'op': '>=', 'value': 2}]}]}}");
        List<String> reference = restarts(tree, new ReferenceInterpreter(tree, 1, 1));
        assertEquals(List.of(
                "0 start", "0 task-enter @global:clock", "0 task-enter @global:keep", "0 enter Root changed",
                "0 task-enter Root:run",
                // tick 2: clock.count reaches 2 (the counter ticks before the scan): the tree succeeds
                "2 transition Root -> @succeeded", "2 exit Root changed", "2 task-exit Root:run",
                "2 task-exit @global:keep", "2 task-exit @global:clock", "2 tree succeeded",
                // a Start after the finish: entered again, the counter from 0
                "3 start", "3 task-enter @global:clock", "3 task-enter @global:keep", "3 enter Root changed",
                "3 task-enter Root:run",
                // Stop: states, then global tasks
                "5 exit Root changed", "5 task-exit Root:run", "5 task-exit @global:keep", "5 task-exit @global:clock",
                "5 tree stopped",
                "6 start", "6 task-enter @global:clock", "6 task-enter @global:keep", "6 enter Root changed",
                "6 task-enter Root:run"), reference);
        assertEquals(reference, restarts(tree, new ReferenceInterpreter(tree, 1, 1, ReferenceInterpreter.TickMode.SCHEDULED)));
        assertEquals(reference, restarts(tree, StateTreeSystem.standalone(tree, 1, 1, 1, 64)));
        assertEquals(reference, restarts(tree, StateTreeSystem.standalone(tree, 1, 1, 2, 1)));

        // Start while the tree runs: Stop first (states, then global tasks), then enter them again
        CompiledStateTree running = compile("{'name': 'Running', 'globalTasks': [{'type': 'run', 'name': 'g'}],"
                + " 'root': {'name': 'Root', 'tasks': [{'type': 'run'}]}}");
        List<String> lines = restarts(running, new ReferenceInterpreter(running, 1, 1));
        int second = lines.indexOf("3 start");
        assertEquals(List.of("3 exit Root changed", "3 task-exit Root:run", "3 task-exit @global:g", "3 tree stopped",
                "3 start", "3 task-enter @global:g"), lines.subList(second - 4, second + 2));
        assertEquals(lines, restarts(running, StateTreeSystem.standalone(running, 1, 1, 1, 64)));
    }

    @Test
    void globalTimersKeepCountingWhileACompletedStateIsStuck() throws Exception {
        // A completes at tick 1 and its @none transition keeps it completed (Q-A4): its own timer
        // pauses, the global time limit does not (the global tasks are reached at every tick).
        CompiledStateTree tree = compile("{'name': 'Stuck', 'globalTasks': [{'type': 'fail', 'name': 'limit',"
                + " 'afterTicks': 4}], 'root': {'name': 'Root', 'children': [{'name': 'A', 'tasks': ["
                + "{'type': 'succeed', 'afterTicks': 1}, {'type': 'delay', 'name': 'paused', 'duration': 2}],"
                + " 'transitions': [{'trigger': 'onStateCompleted', 'to': '@none'}]}]}}");
        List<String> trace = TestNodes.run(tree, "{'ticks': 8, 'dt': 1, 'agents': 3, 'inputs': [{'tick': 1, 'period': 2,"
                .replace('\'', '"') + " \"agent\": 1}]}");
        assertTrue(trace.contains("a0 4 task-completed @global:limit failed"), String.join("\n", trace));
        assertTrue(trace.contains("a2 4 tree failed"), String.join("\n", trace));
        // agent 1 takes part in steps 1, 3, 5, 7 (period 2 from step 1 on): the 4th of its ticks is step 7
        assertTrue(trace.contains("a1 7 task-completed @global:limit failed"), String.join("\n", trace));
    }

    @Test
    void agentsSleepUntilAGlobalTimerRunsOut() throws Exception {
        CompiledStateTree tree = compile("{'name': 'Sleepy', 'globalTasks': [{'type': 'run', 'name': 'g'},"
                + " {'type': 'delay', 'name': 'limit', 'duration': 3, 'randomDeviation': 1}],"
                + " 'root': {'name': 'Root', 'tasks': [{'type': 'run'}]}}");
        int agents = 200;
        try (ReferenceInterpreter plain = new ReferenceInterpreter(tree, agents, 5);
             ReferenceInterpreter scheduled = new ReferenceInterpreter(tree, agents, 5, ReferenceInterpreter.TickMode.SCHEDULED);
             StateTreeSystem batched = StateTreeSystem.standalone(tree, agents, 5, 2, 16)) {
            plain.startAll(0);
            scheduled.startAll(0);
            batched.startAll(0);
            int finished = 0;
            for (int k = 1; k <= 50; k++) {
                plain.tickAll(k, 0.1f);
                scheduled.tickAll(k, 0.1f);
                batched.tickAll(k, 0.1f);
                int now = 0;
                for (int a = 0; a < agents; a++) {
                    assertEquals(plain.treeStatus(a), scheduled.treeStatus(a), "agent " + a + " at tick " + k);
                    assertEquals(plain.treeStatus(a), batched.treeStatus(a), "agent " + a + " at tick " + k);
                    now += plain.treeStatus(a) == RunStatus.SUCCEEDED ? 1 : 0;
                }
                if (k > 1) {
                    // only the agents whose time limit runs out at this tick are awake
                    assertEquals(now - finished, scheduled.awakeLastTick(), "awake at tick " + k);
                    assertEquals(now - finished, batched.awakeLastTick(), "awake at tick " + k);
                }
                finished = now;
            }
            assertEquals(agents, finished, "time limits between 2 and 4 s, 5 s of ticks");
        }
    }
}
