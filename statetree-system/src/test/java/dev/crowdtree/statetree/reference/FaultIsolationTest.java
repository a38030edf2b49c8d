package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.exec.NodeFailure;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.RunStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fault isolation in a crowd (docs/SEMANTICS.md section 14, rules R1-R4): a task that throws for one
 * agent fails the agents of its batch (in the batched runtime, the chunk's agents in that state),
 * while every other agent's tick completes and every event sent that tick, the failing chunk's
 * included, is delivered; the outcome and the failure log are the same on 1, 2 and 8 workers.
 */
class FaultIsolationTest {
    private static final int AGENTS = 1000;
    private static final int CHUNK = 64;
    private static final String TREE = "{\"name\": \"Ring\", \"parameters\": {\"arm\": {\"type\": \"bool\", \"default\": false}},"
            + " \"root\": {\"name\": \"Listen\", \"tasks\": ["
            + "{\"type\": \"tickSendNext\", \"tag\": \"Ping\", \"agents\": " + AGENTS + "},"
            + "{\"type\": \"boomTask\", \"name\": \"boom\", \"in\": \"tick\", \"armed\": {\"param\": \"arm\"}}],"
            + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Ping\", \"to\": \"Listen\"}]}}";

    /** Runs 6 ticks, arming agent 0 before tick 3; returns per agent "status changes" and the failures. */
    private static List<String> run(StateTreeRuntime rt) {
        List<String> out = new ArrayList<>();
        try (rt) {
            rt.setNodeErrorPolicy(NodeErrorPolicy.ISOLATE);
            rt.startAll(0);
            for (int k = 1; k <= 6; k++) {
                if (k == 3) {
                    rt.setParameter(0, "arm", 1);
                }
                rt.tickAll(k, 0.1f);
            }
            for (int a = 0; a < AGENTS; a++) {
                out.add(a + " " + RunStatus.name(rt.treeStatus(a)) + " " + ((StateTreeSystem) rt).stateChangeCount(a));
            }
            for (NodeFailure f : rt.failures().kept()) {
                out.add(f.toString());
            }
            out.add("failures " + rt.failures().total());
        }
        return out;
    }

    @Test
    void aThrowingTaskFailsOnlyItsBatchAndEveryEventIsDelivered() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("ring.json", TREE, TestNodes.compiler());
        List<String> one = run(StateTreeSystem.standalone(tree, AGENTS, 1, 1, CHUNK));
        for (int a = 0; a < AGENTS; a++) {
            String[] f = one.get(a).split(" ");
            // Pings are sent in tick k and seen in tick k + 1; the initial enter counts one change.
            String expected = a < CHUNK ? "failed 2" // the first chunk's batch failed at tick 3 (it saw tick 2's ping)
                    : a == CHUNK ? "running 4"       // its sender failed at tick 3, after sending that tick's ping
                    : "running 6";                   // a ping every tick from 2 to 6
            assertEquals(expected, f[1] + " " + f[2], "agent " + a);
        }
        assertEquals("failures " + CHUNK, one.get(one.size() - 1));
        assertTrue(one.get(AGENTS).startsWith("tick 3 agent 0: task 'boom' in Listen: IllegalStateException: boom in tick"),
                one.get(AGENTS));
        assertEquals(List.of(), failuresNotAt3(one));
        for (int workers : new int[] {2, 8}) {
            assertEquals(one, run(StateTreeSystem.standalone(tree, AGENTS, 1, workers, CHUNK)), workers + " workers");
        }
    }

    private static List<String> failuresNotAt3(List<String> out) {
        List<String> bad = new ArrayList<>();
        for (int i = AGENTS; i < out.size() - 1; i++) {
            if (!out.get(i).startsWith("tick 3 ")) {
                bad.add(out.get(i));
            }
        }
        return bad;
    }

    @Test
    void theReferenceFailsOnlyTheAgentThatThrew() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("ring.json", TREE, TestNodes.compiler());
        try (ReferenceInterpreter rt = new ReferenceInterpreter(tree, 3, 1)) {
            rt.setNodeErrorPolicy(NodeErrorPolicy.ISOLATE);
            rt.startAll(0);
            rt.setParameter(1, "arm", 1);
            rt.tickAll(1, 0.1f);
            assertEquals(RunStatus.RUNNING, rt.treeStatus(0));
            assertEquals(RunStatus.FAILED, rt.treeStatus(1));
            assertEquals(RunStatus.RUNNING, rt.treeStatus(2));
            assertEquals(1, rt.failures().total());
        }
    }

    /** A stack overflow in a node is a node failure like an exception (issue 34: it aborted the run). */
    @Test
    void aStackOverflowInANodeIsIsolatedLikeAnExceptionInBothRuntimes() throws Exception {
        String tree = "{\"name\": \"Deep\", \"parameters\": {\"arm\": {\"type\": \"bool\", \"default\": false}},"
                + " \"root\": {\"name\": \"Run\", \"tasks\": [{\"type\": \"boomTask\", \"name\": \"deep\","
                + " \"in\": \"tick\", \"error\": \"stackOverflow\", \"armed\": {\"param\": \"arm\"}}]}}";
        assertOnlyAgent150Fails(StateTreeJson.compile("deep.json", tree, TestNodes.compiler()), "",
                "tick 1 agent 150: task 'deep' in Run: StackOverflowError");
    }

    /**
     * In both runtimes (200 agents; the batched one in chunks of {@link #CHUNK} on 2 workers) under
     * ISOLATE, with {@code arm} set for agent 150 only: after two ticks agent 150 failed, agents 0 and
     * 199 (other chunks) still run, and a kept failure starts with {@code failure}.
     */
    private static void assertOnlyAgent150Fails(CompiledStateTree compiled, String what, String failure) {
        List<StateTreeRuntime> runtimes = List.of(new ReferenceInterpreter(compiled, 200, 1),
                StateTreeSystem.standalone(compiled, 200, 1, 2, CHUNK));
        for (StateTreeRuntime rt : runtimes) {
            try (rt) {
                rt.setNodeErrorPolicy(NodeErrorPolicy.ISOLATE);
                rt.startAll(0);
                rt.setParameter(150, "arm", 1);
                rt.tickAll(1, 0.1f);
                rt.tickAll(2, 0.1f);
                String name = what + rt.getClass().getSimpleName();
                assertEquals(RunStatus.FAILED, rt.treeStatus(150), name);
                assertEquals(RunStatus.RUNNING, rt.treeStatus(0), name);
                assertEquals(RunStatus.RUNNING, rt.treeStatus(199), name);
                List<String> kept = new ArrayList<>();
                rt.failures().kept().forEach(f -> kept.add(f.toString()));
                assertTrue(kept.stream().anyMatch(f -> f.startsWith(failure)), name + ": " + kept);
            }
        }
    }

    /**
     * A condition that throws in round one of a tree with priorities, or of one scanned root first,
     * fails its agent (rule R1) in both runtimes (the batched one, the agents of its batch, as for
     * every throwing node). The batched runtime scanned such trees agent by agent, marking each
     * agent decided before its scan, so a throwing condition was taken as false and the agent went
     * on; it now scans them in batches (issue 35) and fails the agent as the reference does.
     */
    @Test
    void aConditionThatThrowsInATreeWithPrioritiesFailsItsAgentInBothRuntimes() throws Exception {
        for (String scan : List.of("leafFirst", "rootFirst")) {
            String tree = "{\"name\": \"Ranked\", \"transitionScan\": \"" + scan + "\","
                    + " \"parameters\": {\"arm\": {\"type\": \"bool\", \"default\": false},"
                    + " \"t\": {\"type\": \"float\", \"default\": 0}},"
                    + " \"root\": {\"name\": \"Root\", \"transitions\": ["
                    + "  {\"trigger\": \"onTick\", \"to\": \"C\", \"priority\": \"high\","
                    + "   \"conditions\": [{\"type\": \"compare\", \"param\": \"t\", \"op\": \">\", \"value\": 0.5}]}],"
                    + " \"children\": ["
                    + "  {\"name\": \"A\", \"tasks\": [{\"type\": \"delay\", \"duration\": 100}], \"transitions\": ["
                    + "    {\"trigger\": \"onTick\", \"to\": \"B\", \"priority\": \"low\","
                    + "     \"conditions\": [{\"type\": \"boomCondition\", \"armed\": {\"param\": \"arm\"}},"
                    + "                      {\"type\": \"compare\", \"param\": \"t\", \"op\": \">\", \"value\": 2}]}]},"
                    + "  {\"name\": \"B\", \"tasks\": [{\"type\": \"delay\", \"duration\": 100}]},"
                    + "  {\"name\": \"C\", \"tasks\": [{\"type\": \"delay\", \"duration\": 100}]}]}}";
            // agent 150's condition throws; the root's high transition does not pass for it
            assertOnlyAgent150Fails(StateTreeJson.compile("ranked.json", tree, TestNodes.compiler()), scan + " ",
                    "tick 1 agent 150: condition 'boomCondition' in Root/A");
        }
    }

    @Test
    void underFailTheExceptionEndsTheTick() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("ring.json", TREE, TestNodes.compiler());
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 10, 1, 1, CHUNK)) {
            sys.startAll(0);
            sys.setParameter(0, "arm", 1);
            assertThrows(RuntimeException.class, () -> sys.tickAll(1, 0.1f));
            assertEquals(0, sys.failures().total());
        }
    }
}
