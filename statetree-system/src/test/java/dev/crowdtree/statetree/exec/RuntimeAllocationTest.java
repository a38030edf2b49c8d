package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.metrics.AllocationWindows;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.fixtures.AbortTrees;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.Payload;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A steady StateTree tick allocates nothing, on the simulation thread and on every worker. */
class RuntimeAllocationTest {
    /**
     * Agents per run: with the world's chunks of 1,024 rows the runtime ticks chunks of 4,096, so two
     * of them, one per worker on two workers; over the 4,000 warm-up ticks every path of these trees
     * runs thousands of times. (It was 20,000: the same checks, four times the time, 105 of
     * statetree-system's 172 seconds of tests.)
     */
    private static final int AGENTS = 5_000;

    @Test
    void steadyCrowdTickAllocatesNothing() throws Exception {
        assertSteadyTicksAllocateNothing(CrowdTrees.crowd(), AGENTS);
    }

    @Test
    void steadyTickWithTheRecorderOnAllocatesNothing() throws Exception {
        // the population counters (issue 21): counted in the chunks, summed after the barrier
        CompiledStateTree tree = StateTreeCompiler.withBuiltins().compile(CrowdTrees.everything());
        assertSteadyTicksAllocateNothing(tree, AGENTS, (sys, k) -> {
            if (k == 1) {
                sys.setRecording(true);
            }
        }, sys -> sys.recorder().tick());
    }

    /**
     * The recorder with 1% of the agents watched (issue 21): the watched agents go quiet (they sit
     * in a state with nothing to tick), the others cycle; a tick in which no watched agent prints a
     * line allocates nothing (the chunks read the watched column, count enters and events, keep the
     * why bookkeeping; the rings get nothing).
     */
    @Test
    void steadyTickWithWatchedAgentsAllocatesNothing() throws Exception {
        TreeDef def = tree("Watched").param("quiet", "bool", false)
                .root(state("Root")
                        .child(state("Work").task(node("delay").with("duration", 0.2).with("randomDeviation", 0.1))
                                .transition(on("onTick").to("Idle").when(node("bool").with("param", "quiet")))
                                .transition(on("onStateCompleted").to("Work")))
                        .child(state("Idle").task(node("run"))))
                .build();
        int agents = AGENTS;
        assertSteadyTicksAllocateNothing(StateTreeCompiler.withBuiltins().compile(def), agents, (sys, k) -> {
            if (k == 1) {
                sys.setRecording(true);
                for (int a = 50; a < agents; a += 100) {
                    sys.setParameter(a, "quiet", 1);
                    sys.recorder().watch(a);
                }
            }
        }, sys -> {
            assertEquals(agents / 100, sys.recorder().watchedCount());
            assertTrue(sys.recorder().trace(50).contains("1 enter Root/Idle changed"), sys.recorder().trace(50).toString());
            return sys.recorder().tick();
        });
    }

    /**
     * A behavior tree with observer aborts (issue 35's compare variant {@code aborts}): selector and
     * sequence composites, {@code "priority"} transitions scanned in batches with ranked finds, the
     * composites' completed agents scanned one by one.
     */
    @Test
    void steadyTickOfABehaviorTreeWithAbortsAllocatesNothing() throws Exception {
        assertSteadyTicksAllocateNothing(AbortTrees.aborts(), AGENTS);
    }

    @Test
    void steadyTickWithEventsGatesAndFailuresAllocatesNothing() throws Exception {
        assertSteadyTicksAllocateNothing(CrowdTrees.everything(), AGENTS);
    }

    @Test
    void steadyTickWithPayloadEventsAllocatesNothing() throws Exception {
        // The event_payload golden tree: payloadFields transitions and a sendEvent payload object;
        // the host sends object payloads (made once) and number payloads (the allocation-free form).
        CompiledStateTree tree = StateTreeJson.compile(Path.of("src/test/resources/golden/event_payload/tree.json"),
                StateTreeCompiler.withBuiltins());
        Payload loud = Payload.of(Map.of("volume", 12.5));
        Payload quiet = Payload.of(Map.of("volume", 4));
        assertSteadyTicksAllocateNothing(tree, AGENTS, (sys, k) -> {
            for (int a = k % 5; a < AGENTS; a += 97) {
                sys.sendEvent(a, "Noise", k % 3 == 0 ? quiet : loud);
                sys.sendEvent(a, "Noise", -1f, true);
            }
        });
    }

    /**
     * Rule E5: events the tree's payload transitions reject (a bool where a float is declared, no
     * payload, a field no transition declares) are counted in every measured tick without allocating.
     */
    @Test
    void steadyTickWithMismatchingPayloadsAllocatesNothing() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile(Path.of("src/test/resources/golden/event_payload/tree.json"),
                StateTreeCompiler.withBuiltins());
        Payload loud = Payload.of(Map.of("volume", 12.5));
        Payload wrongType = Payload.of(Map.of("volume", true));
        Payload misspelt = Payload.of(Map.of("volmue", 12.5));
        assertSteadyTicksAllocateNothing(tree, AGENTS, (sys, k) -> {
            for (int a = k % 5; a < AGENTS; a += 97) {
                sys.sendEvent(a, "Noise", k % 2 == 0 ? wrongType : misspelt);
                sys.sendEvent(a, "Noise", (Payload) null);
                sys.sendEvent(a, "Noise", k % 3 == 0 ? loud : null);
                sys.sendEvent(a, "Noise", -1f, true);
            }
        }, sys -> sys.unmatchedPayloads().stream().mapToLong(PayloadMismatch::count).sum());
    }

    /**
     * Required events (rules V2-V6), the reqevent_select golden tree: a state selected only with a
     * matching event whose enter condition reads it (tried in queue order), its delay reading the
     * kept payload, both events consumed; events it rejects for their payload are counted.
     */
    @Test
    void steadyTickWithRequiredEventsAllocatesNothing() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile(Path.of("src/test/resources/golden/reqevent_select/tree.json"),
                StateTreeCompiler.withBuiltins());
        Payload near = Payload.of(Map.of("x", 0.5));
        Payload far = Payload.of(Map.of("x", 50));
        assertSteadyTicksAllocateNothing(tree, AGENTS, (sys, k) -> {
            for (int a = k % 5; a < AGENTS; a += 97) {
                sys.sendEvent(a, "Alarm", far);
                sys.sendEvent(a, "Alarm", k % 3 == 0 ? near : far);
                sys.sendEvent(a, "Alarm", 1f, true); // the field 'value', not x: rejected and counted
            }
        }, sys -> sys.unmatchedPayloads().stream().mapToLong(PayloadMismatch::count).sum());
    }

    /**
     * {@link CrowdTrees#everything()} with global tasks (rules G1-G3): one ticking in the background
     * (every agent awake, one batch per pass), a parameter set on enter, and a time limit drawn per
     * agent that finishes trees all along the measured ticks (the finish exits the states, then the
     * global tasks).
     */
    @Test
    void steadyTickWithGlobalTasksAllocatesNothing() throws Exception {
        assumeTrue(AllocationWindows.supported());
        TreeDef e = CrowdTrees.everything();
        TreeDef def = new TreeDef(e.source(), "EverythingWithGlobalTasks", e.parameters(), e.evaluators(), e.root(),
                e.subtrees(), List.of(
                node("setParameter").named("calm").with("param", "alert").with("value", false).build(),
                node("waitUntil").named("watch").with("condition", node("bool").with("param", "alert"))
                        .with("considerForCompletion", false).build(),
                node("delay").named("limit").with("duration", 150.0).with("randomDeviation", 140.0).build()));
        CompiledStateTree tree = StateTreeCompiler.withBuiltins().compile(def);
        int agents = AGENTS;
        for (int workers : new int[] {1, 2}) {
            try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 3, workers, 1024)) {
                sys.startAll(0);
                for (int k = 1; k <= 4000; k++) {
                    sys.tickAll(k, 1f / 30f);
                }
                int before = sys.awakeLastTick();
                String dirty = AllocationWindows.findClean(sys.world().executor().workerThreadIds(), 4, 300,
                        i -> sys.tickAll(4001 + i, 1f / 30f));
                assertEquals("", dirty, tree.name + ": no window of 300 steady ticks without allocation, workers=" + workers);
                int after = sys.awakeLastTick();
                assertTrue(after < before && after > 0, "trees should have finished by their time limit in the measured"
                        + " ticks, and others still run: awake " + before + " -> " + after);
            }
        }
    }

    /**
     * Composites (rules K2-K6): a selector of two sequences, cycling through every rule (a sequence
     * moving on, one whose next child cannot be selected, the selector falling back, both completing
     * up to the root, the restart) on the per-agent scan of completed agents; and a root-first scan
     * (rule H2) of {@link CrowdTrees#everything()}, scanned per agent.
     */
    @Test
    void steadyTickWithCompositesOrARootFirstScanAllocatesNothing() throws Exception {
        TreeDef composites = tree("Composites")
                .root(state("Root").selector()
                        .child(state("Seq").sequence()
                                .child(state("A").task(node("delay").with("duration", 0.2).with("randomDeviation", 0.1)))
                                .child(state("B").enterCondition(node("randomChance").with("probability", 0.5))
                                        .task(node("delay").with("duration", 0.1)))
                                .child(state("C").task(node("succeed").with("afterTicks", 2))))
                        .child(state("Fallback").sequence()
                                .child(state("D").task(node("delay").with("duration", 0.2).with("randomDeviation", 0.1)))
                                .child(state("E").task(node("fail").with("afterTicks", 3)))))
                .build();
        assertSteadyTicksAllocateNothing(composites, AGENTS);
        TreeDef e = CrowdTrees.everything();
        assertSteadyTicksAllocateNothing(new TreeDef(e.source(), "EverythingRootFirst", e.parameters(), e.evaluators(),
                e.root(), e.subtrees(), e.globalTasks(), "rootFirst"), AGENTS);
    }

    /**
     * History states (rules Y2-Y5): a deep one left at random for a recharge and resumed, with a
     * shallow one below it, so memories are written on every exit and read on every return.
     */
    @Test
    void steadyTickWithHistoryStatesAllocatesNothing() throws Exception {
        TreeDef history = tree("History")
                .root(state("Root")
                        .child(state("Work").deepHistory()
                                .transition(on("onTick").to("Recharge").when(node("randomChance").with("probability", 0.05)))
                                .child(state("Clean").shallowHistory()
                                        .child(state("Search").task(node("delay").with("duration", 0.2).with("randomDeviation", 0.1))
                                                .transition(on("onStateCompleted").to("@next")))
                                        .child(state("PickUp").task(node("delay").with("duration", 0.1))
                                                .transition(on("onStateCompleted").to("@next")))
                                        .child(state("Carry").task(node("delay").with("duration", 0.2))
                                                .transition(on("onStateCompleted").to("Search")))))
                        .child(state("Recharge").task(node("delay").with("duration", 0.3).with("randomDeviation", 0.2))
                                .transition(on("onStateCompleted").to("Work"))))
                .build();
        assertSteadyTicksAllocateNothing(history, AGENTS);
    }

    /**
     * Tick periods of states and state parameters (rules Z2-Z5, X3-X4): agents cycle between states
     * asking for periods 2 and 4 and one asking for none, under LOD periods the host changes, and
     * their states' parameters are given values on every entry and selection.
     */
    @Test
    void steadyTickWithStateTickPeriodsAndStateParametersAllocatesNothing() throws Exception {
        Object wait = Map.of("fn", "mul", "args", List.of(Binding.param("speed"), 1.5));
        Object lap = Map.of("fn", "add", "args", List.of(Binding.param("laps"), 1));
        TreeDef def = tree("PeriodsAndParams").param("speed", "float", 0.1)
                .root(state("Root").paramValue("wait", "float", wait)
                        .child(state("Slow").tickPeriod(4).param("laps", "int", 0)
                                .child(state("Walk").tickPeriod(2)
                                        .task(node("setParameter").with("param", "laps").with("value", lap))
                                        .task(node("delay").with("duration", Binding.param("wait"))
                                                .with("randomDeviation", 0.05))
                                        .transition(on("onStateCompleted").to("Root/Slow/Walk")
                                                .when(node("compare").with("param", "laps").with("op", "<").with("value", 3)))
                                        .transition(on("onStateCompleted").to("Root/Fast"))))
                        .child(state("Fast").paramValue("limit", "int", 2)
                                .enterCondition(node("compare").with("param", "limit").with("op", "==").with("value", 2))
                                .task(node("succeed").with("afterTicks", 3))
                                .transition(on("onStateCompleted").to("Root/Slow"))))
                .build();
        assertSteadyTicksAllocateNothing(StateTreeCompiler.withBuiltins().compile(def), AGENTS, (sys, k) -> {
            if (k % 50 == 0) {
                for (int a = k % 7; a < AGENTS; a += 13) {
                    sys.setTickPeriod(a, 1 << (k / 50 % 4)); // LOD periods 1 to 8, combined with the states'
                }
            }
        });
    }

    /**
     * Unreal 5.8's rules (U2-U6): a task-less path that succeeds at every tick (U6) and leaves through
     * a gated completion transition; a state whose tasks all tick, its child's failure winning over its
     * success in the same tick (U5), that selects itself again on success (entered again as changed,
     * U3) and leaves through a gated onTick transition armed once (U4); a linked subtree whose
     * {@code @succeeded} and {@code @failed} complete the linked state (U2).
     */
    @Test
    void steadyTickUnderUnrealRulesAllocatesNothing() throws Exception {
        TreeDef unreal = tree("Unreal").rules("unreal-5.8")
                .root(state("Root")
                        .child(state("Idle").transition(on("onTick").to("Work").delay(0.1, 0.05)))
                        .child(state("Work")
                                .task(node("delay").with("duration", 0.2).with("randomDeviation", 0.1).reselect(false))
                                .task(node("succeed").with("afterTicks", 6))
                                .transition(on("onStateSucceeded").to("Work")
                                        .when(node("randomChance").with("probability", 0.7)))
                                .transition(on("onStateSucceeded").to("Errand"))
                                .transition(on("onTick").to("Idle").delay(0.2, 0.1)
                                        .when(node("randomChance").with("probability", 0.02)))
                                .child(state("Dig").task(node("fail").with("afterTicks", 6))
                                        .transition(on("onStateFailed").to("Errand"))))
                        .child(state("Errand").linked("Trip")
                                .transition(on("onStateSucceeded").to("Idle"))
                                .transition(on("onStateFailed").to("Work"))))
                .subtree(state("Trip").task(node("run"))
                        .child(state("Go").task(node("delay").with("duration", 0.2).with("randomDeviation", 0.1))
                                .transition(on("onStateCompleted").to("@next"))
                                .transition(on("onTick").to("@failed").when(node("randomChance").with("probability", 0.05))))
                        .child(state("Back").task(node("succeed").with("afterTicks", 2))
                                .transition(on("onStateSucceeded").to("@succeeded"))))
                .build();
        CompiledStateTree tree = StateTreeCompiler.withBuiltins().compile(unreal);
        assertTrue(tree.unreal.on && tree.unreal.noTaskOnPath(tree.stateByPath("Root/Idle")));
        assertSteadyTicksAllocateNothing(tree, AGENTS, (sys, k) -> { });
    }

    private static void assertSteadyTicksAllocateNothing(TreeDef def, int agents) throws Exception {
        assertSteadyTicksAllocateNothing(StateTreeCompiler.withBuiltins().compile(def), agents, (sys, k) -> { });
    }

    private static void assertSteadyTicksAllocateNothing(CompiledStateTree tree, int agents, Host host) throws Exception {
        assertSteadyTicksAllocateNothing(tree, agents, host, null);
    }

    /** What the host does before tick {@code k}. */
    private interface Host {
        void beforeTick(StateTreeSystem sys, int k);
    }

    /** With {@code grows} non-null, the count it reads (outside the measured ticks) must grow over them. */
    private static void assertSteadyTicksAllocateNothing(CompiledStateTree tree, int agents, Host host,
                                                         ToLongFunction<StateTreeSystem> grows) throws Exception {
        assumeTrue(AllocationWindows.supported());
        for (int workers : new int[] {1, 2}) {
            try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 3, workers, 1024)) {
                sys.setTiming(true);
                sys.startAll(0);
                // Warm up long enough that rare paths have run once: a first execution can make the
                // JVM resolve or initialize something on this thread (seen once: 160 bytes), which
                // is not a steady tick's allocation.
                for (int k = 1; k <= 4000; k++) {
                    host.beforeTick(sys, k);
                    sys.tickAll(k, 1f / 30f);
                }
                int[] transitions = new int[1];
                long before = grows == null ? 0 : grows.applyAsLong(sys);
                String dirty = AllocationWindows.findClean(sys.world().executor().workerThreadIds(), 4, 300, i -> {
                    int c0 = sys.stateChangeCount(0);
                    host.beforeTick(sys, 4001 + i);
                    sys.tickAll(4001 + i, 1f / 30f);
                    transitions[0] += sys.stateChangeCount(0) - c0;
                });
                assertTrue(transitions[0] > 0, "agent 0 should have changed state in the measured ticks");
                assertEquals("", dirty, tree.name + ": no window of 300 steady ticks without allocation, workers=" + workers);
                if (grows != null) {
                    long after = grows.applyAsLong(sys);
                    assertTrue(after > before, "the count should grow in the measured ticks: " + before + " -> " + after);
                }
            }
        }
    }
}
