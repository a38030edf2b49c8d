package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.AgentHandle;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import dev.crowdtree.statetree.internal.Countdown;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batched runtime's scheduling (docs/SEMANTICS.md sections 11 and 12): sleeping agents are not
 * touched, wake-ups happen on the right tick, a change of dt or a move of rows changes no result,
 * and tick periods are deterministic.
 */
class SchedulingTest {
    private static CompiledStateTree compile(TreeDef def) throws Exception {
        return StateTreeCompiler.withBuiltins().compile(def);
    }

    @Test
    void delayOnlyAgentsAreAwakeOnlyWhenTheirTimerRunsOutOrSomethingHappens() throws Exception {
        CompiledStateTree tree = compile(CrowdTrees.napper());
        long due = Countdown.steps(1f, 0.1f); // the tick A's delay runs out on (counting from 1)
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 1000, 1, 2, 64)) {
            sys.startAll(0);
            for (int k = 1; k < due; k++) {
                if (k == 3) {
                    sys.sendEvent(5, "Poke", 0f, false);
                }
                if (k == 4) {
                    sys.setParameter(9, "p", 1.0);
                }
                sys.tickAll(k, 0.1f);
                int expected = k == 3 || k == 4 ? 1 : 0;
                assertEquals(expected, sys.awakeLastTick(), "awake agents at tick " + k);
            }
            sys.tickAll(due, 0.1f);
            assertEquals(999, sys.awakeLastTick(), "every agent still in A wakes when its delay runs out");
            assertEquals("Root/B", sys.activePath(0));
            assertEquals("Root/B", sys.activePath(5), "the poked agent went to B at tick 3");
        }
    }

    @Test
    void aStateThatCompletesAgainAtEveryTickKeepsItsAgentsAwake() throws Exception {
        // rules M1, M2: the delay is not re-entered by the sustained self-transition and stays run out
        CompiledStateTree tree = compile(tree("Again")
                .root(state("Root")
                        .child(state("Wait").task(node("delay").with("duration", 1.0).reselect(false))
                                .transition(on("onStateCompleted").to("Root/Wait"))))
                .build());
        long due = Countdown.steps(1f, 0.1f);
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 1000, 1, 2, 64)) {
            int[] transitions = new int[1];
            sys.setTrace((agent, line) -> transitions[0] += line.contains(" transition ") ? 1 : 0);
            sys.startAll(0);
            for (int k = 1; k < due + 20; k++) {
                transitions[0] = 0;
                sys.tickAll(k, 0.1f);
                int expected = k < due ? 0 : 1000;
                assertEquals(expected, sys.awakeLastTick(), "awake agents at tick " + k);
                assertEquals(expected, transitions[0], "self-transitions at tick " + k);
            }
        }
    }

    /** Drives a runtime with a per-tick dt and scripted inputs; returns its trace, agent-prefixed. */
    private static List<String> drive(StateTreeRuntime rt, float[] dts, long seed) {
        List<String> lines = new ArrayList<>();
        List<String> tickLines = new ArrayList<>();
        List<Integer> tickAgents = new ArrayList<>();
        rt.setTrace((a, l) -> {
            tickAgents.add(a);
            tickLines.add(l);
        });
        int agents = rt.agentCount();
        for (int k = 0; k < dts.length; k++) {
            if (k == 0) {
                rt.startAll(0);
            } else {
                for (int a = 0; a < agents; a++) {
                    if (CounterRng.uniform(seed, a, k, 9) < 0.02f) {
                        rt.sendEvent(a, "Poke", 0f, false);
                    }
                }
                if (k % 13 == 0) {
                    rt.setParameter(k % agents, "p", (k / 13) % 2);
                }
                rt.tickAll(k, dts[k]);
            }
            // stable by agent within the tick, as ScenarioRunner orders them
            Integer[] idx = new Integer[tickLines.size()];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = i;
            }
            java.util.Arrays.sort(idx, (x, y) -> Integer.compare(tickAgents.get(x), tickAgents.get(y)));
            for (Integer i : idx) {
                lines.add("a" + tickAgents.get(i) + " " + tickLines.get(i));
            }
            tickLines.clear();
            tickAgents.clear();
        }
        return lines;
    }

    @Test
    void aChangingDtGivesTheSameTicksAsCountingDownEveryTick() throws Exception {
        // delays with deviation, a gated completion transition and a gated onTick transition
        CompiledStateTree tree = compile(tree("Varying")
                .param("p", "float", 0.0)
                .root(state("Root")
                        .transition(on("onEvent").event("Poke").to("Root/B"))
                        .child(state("A").task(node("delay").with("duration", 0.9).with("randomDeviation", 0.4))
                                .transition(on("onStateCompleted").to("Root/B").delay(0.35, 0.2)))
                        .child(state("B").task(node("delay").with("duration", 1.3).with("randomDeviation", 0.6))
                                .transition(on("onTick").to("Root/C").delay(0.5, 0.3)
                                        .when(node("compare").with("param", "p").with("op", ">").with("value", 0.5)))
                                .transition(on("onStateCompleted").to("Root/A")))
                        .child(state("C").task(node("succeed").with("afterTicks", 4))
                                .transition(on("onStateSucceeded").to("Root/A"))))
                .build());
        SplittableRandom rnd = new SplittableRandom(5);
        float[] dts = new float[400];
        for (int k = 1; k < dts.length; k++) {
            // runs of equal dt with jumps, as a host with a variable step would produce
            dts[k] = k % 37 < 20 ? 0.1f : (float) (0.01 + rnd.nextDouble() * 0.2);
        }
        List<String> reference = drive(new ReferenceInterpreter(tree, 40, 3), dts, 3);
        assertTrue(reference.size() > 2000, "the run must do a lot: " + reference.size());
        for (int[] cfg : new int[][] {{1, 64}, {2, 4}, {3, 1}}) {
            try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 40, 3, cfg[0], cfg[1])) {
                assertEquals(reference, drive(sys, dts, 3), "workers " + cfg[0] + ", chunks of " + cfg[1]);
            }
        }
    }

    @Test
    void longTimersRunOutOnTheExactTickAcrossEveryLevelOfTheWheel() throws Exception {
        // due steps from a few to ~100,000 ahead: level 0 (< 256), level 1 (< 65,280) and overflow
        CompiledStateTree tree = compile(tree("Long")
                .root(state("Root")
                        .child(state("A").task(node("delay").with("duration", 150.0).with("randomDeviation", 148.0))
                                .transition(on("onStateCompleted").to("Root/B")))
                        .child(state("B").task(node("delay").with("duration", 20000.0).with("randomDeviation", 19000.0))
                                .transition(on("onStateCompleted").to("Root/C")))
                        .child(state("C").task(node("delay").with("duration", 70000.0).with("randomDeviation", 30000.0))
                                .transition(on("onStateCompleted").to("Root/A"))))
                .build());
        int agents = 48;
        int ticks = 140_000;
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        try (ReferenceInterpreter ref = new ReferenceInterpreter(tree, agents, 4);
             StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 4, 2, 8)) {
            ref.setTrace((a, l) -> expected.add(a + " " + l));
            sys.setTrace((a, l) -> actual.add(a + " " + l));
            ref.startAll(0);
            sys.startAll(0);
            for (int k = 1; k <= ticks; k++) {
                ref.tickAll(k, 1f);
                sys.tickAll(k, 1f);
            }
        }
        assertTrue(expected.stream().filter(l -> l.contains("transition Root/C")).count() > 10,
                "timers beyond the wheel's 65,280-step reach must have run out: " + expected.size());
        expected.sort(null);
        actual.sort(null);
        assertEquals(expected, actual);
    }

    /** A world of our own: the table can be reordered and rows despawned. */
    private static final class Sim implements AutoCloseable {
        final World world;
        final SoaTable table;
        final StateTreeSystem sys;

        Sim(CompiledStateTree tree, int agents, int workers, int chunk) {
            world = World.builder().workers(workers).chunkSize(chunk).seed(11).maxAgents(agents).initialCapacity(agents).build();
            table = world.createTable("agents");
            sys = new StateTreeSystem(world, table, tree);
            SpawnInitializer init = sys.spawnInitializer(SpawnInitializer.NONE);
            for (int i = 0; i < agents; i++) {
                world.commands().spawn(table, init, 0);
            }
            world.sync();
        }

        @Override
        public void close() {
            world.close();
        }
    }

    @Test
    void reorderingAndDespawningRowsChangesNoResult() throws Exception {
        CompiledStateTree tree = compile(CrowdTrees.everything());
        int agents = 600;
        try (Sim plain = new Sim(tree, agents, 2, 32); Sim moved = new Sim(tree, agents, 2, 32)) {
            List<String> a = new ArrayList<>();
            List<String> b = new ArrayList<>();
            plain.sys.setTrace((id, l) -> a.add(id + " " + l));
            moved.sys.setTrace((id, l) -> b.add(id + " " + l));
            plain.sys.startAll(0);
            moved.sys.startAll(0);
            SplittableRandom rnd = new SplittableRandom(8);
            for (int k = 1; k <= 200; k++) {
                if (k % 7 == 0) {
                    int n = moved.table.size();
                    int[] perm = new int[n];
                    for (int i = 0; i < n; i++) {
                        perm[i] = i;
                    }
                    for (int i = n - 1; i > 0; i--) {
                        int j = rnd.nextInt(i + 1);
                        int x = perm[i];
                        perm[i] = perm[j];
                        perm[j] = x;
                    }
                    moved.world.reorder(moved.table, perm);
                }
                if (k % 23 == 0) {
                    int victim = (k * 31) % agents;
                    for (Sim s : new Sim[] {plain, moved}) {
                        AgentHandle h = s.world.agent(victim);
                        if (h != null) {
                            s.world.commands().despawn(h.id());
                            s.world.sync();
                        }
                    }
                }
                if (k % 5 == 0) {
                    plain.sys.sendEvent(k % agents, "Alarm", 0f, false);
                    moved.sys.sendEvent(k % agents, "Alarm", 0f, false);
                }
                plain.sys.tickAll(k, 0.1f);
                moved.sys.tickAll(k, 0.1f);
            }
            a.sort(null);
            b.sort(null);
            assertEquals(a, b, "the same lines per agent, whatever the rows");
            for (int id = 0; id < agents; id++) {
                assertEquals(plain.sys.activePath(id), moved.sys.activePath(id), "agent " + id);
                assertEquals(plain.sys.stateChangeCount(id), moved.sys.stateChangeCount(id), "agent " + id);
            }
        }
    }

    /**
     * The state-change count keeps its low 16 bits in the packed execution word and the rest in a
     * column written only when they wrap: past 65,536 changes it must still equal the reference's
     * plain int count, for every agent.
     */
    @Test
    void stateChangeCountsStayExactPastSixteenBits() throws Exception {
        CompiledStateTree t = compile(tree("PingPong").root(state("Root")
                .child(state("A").task(node("succeed").with("afterTicks", 1)).transition(on("onStateCompleted").to("Root/B")))
                .child(state("B").task(node("succeed").with("afterTicks", 1)).transition(on("onStateCompleted").to("Root/A"))))
                .build());
        int agents = 3;
        try (Sim sim = new Sim(t, agents, 1, 64)) {
            ReferenceInterpreter ref = new ReferenceInterpreter(t, agents, 11);
            sim.sys.startAll(0);
            ref.startAll(0);
            int ticks = 70_000;
            for (int k = 1; k <= ticks; k++) {
                sim.sys.tickAll(k, 0.1f);
                ref.tickAll(k, 0.1f);
            }
            for (int id = 0; id < agents; id++) {
                assertTrue(ref.stateChangeCount(id) > 65_536, "the test reaches past 16 bits: " + ref.stateChangeCount(id));
                assertEquals(ref.stateChangeCount(id), sim.sys.stateChangeCount(id), "agent " + id);
            }
        }
    }

    @Test
    void anAgentWithPeriodPTakesPartEveryPthStepWithPTimesDt() throws Exception {
        CompiledStateTree tree = compile(tree("Counter")
                .root(state("Root").task(node("succeed").with("afterTicks", 3))
                        .transition(on("onStateSucceeded").to("@succeeded")))
                .build());
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 4, 1, 1, 64)) {
            for (int a = 0; a < 4; a++) {
                sys.setTickPeriod(a, 4); // not running yet: takes effect at once
            }
            assertEquals(4, sys.tickPeriod(2));
            sys.startAll(0);
            int[] finished = new int[4];
            for (int k = 1; k <= 20; k++) {
                sys.tickAll(k, 0.1f);
                for (int a = 0; a < 4; a++) {
                    if (finished[a] == 0 && sys.treeStatus(a) == RunStatus.SUCCEEDED) {
                        finished[a] = k;
                    }
                }
            }
            // agent a takes part in the steps k with (k + a) % 4 == 0; its third one finishes it
            assertEquals(12, finished[0]);
            assertEquals(11, finished[1]);
            assertEquals(10, finished[2]);
            assertEquals(9, finished[3]);
        }
    }

    @Test
    void tickPeriodsAreDeterministicForAnyWorkerCount() throws Exception {
        CompiledStateTree tree = compile(CrowdTrees.everything());
        long first = 0;
        for (int w : new int[] {1, 2, 3}) {
            try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 3000, 7, w, 128)) {
                sys.startAll(0);
                for (int k = 1; k <= 150; k++) {
                    if (k % 10 == 1) {
                        for (int a = 0; a < 3000; a += 3) {
                            sys.setTickPeriod(a, 1 << (int) (CounterRng.bits(5, a, k, 2) & 3));
                        }
                    }
                    if (k % 9 == 0) {
                        sys.sendEvent(k * 7 % 3000, "Alarm", 0f, false);
                    }
                    sys.tickAll(k, 0.1f);
                }
                long h = sys.world().contentHash();
                if (w == 1) {
                    first = h;
                } else {
                    assertEquals(first, h, "hash with " + w + " workers");
                }
            }
        }
    }

    @Test
    void periodsRequestedFromTheHostsOwnKernelsEqualRequestsFromTheSimulationThread() throws Exception {
        CompiledStateTree tree = compile(CrowdTrees.everything());
        int agents = 20_000;
        long[] hashes = new long[2];
        for (int variant = 0; variant < 2; variant++) {
            boolean fromKernels = variant == 0;
            // world chunks of 1024 rows: the runtime schedules four of them per chunk of its own
            World world = World.builder().workers(fromKernels ? 3 : 1).chunkSize(1024).seed(5)
                    .maxAgents(agents).initialCapacity(agents).build();
            try {
                SoaTable table = world.createTable("agents");
                StateTreeSystem sys = new StateTreeSystem(world, table, tree);
                SpawnInitializer init = sys.spawnInitializer(SpawnInitializer.NONE);
                for (int i = 0; i < agents; i++) {
                    world.commands().spawn(table, init, 0);
                }
                world.sync();
                sys.startAll(0);
                for (int k = 1; k <= 120; k++) {
                    final int tick = k;
                    if (k % 15 == 1) {
                        if (fromKernels) {
                            world.runPhase(table, new dev.crowdtree.core.schedule.ChunkKernel() {
                                @Override
                                public void execute(dev.crowdtree.core.schedule.Chunk c) {
                                    int[] ids = table.agentIds().data();
                                    for (int r = c.begin(); r < c.end(); r++) {
                                        sys.setTickPeriodOfRow(r, 1 << (int) (CounterRng.bits(9, ids[r], tick, 0) & 3));
                                    }
                                }

                                @Override
                                public String kernelName() {
                                    return "periods";
                                }
                            });
                        } else {
                            for (int a = 0; a < agents; a++) {
                                sys.setTickPeriod(a, 1 << (int) (CounterRng.bits(9, a, tick, 0) & 3));
                            }
                        }
                    }
                    if (k % 7 == 0) {
                        sys.sendEvent(k * 13 % agents, "Alarm", 0f, false);
                    }
                    sys.tickAll(k, 0.1f);
                }
                hashes[variant] = world.contentHash();
            } finally {
                world.close();
            }
        }
        assertEquals(hashes[1], hashes[0]);
    }

    @Test
    void aStatesTickPeriodCombinesWithTheLodPeriodByTheLarger() throws Exception {
        // rules Z2-Z5: Slow asks for 4, Fast for nothing; the host's LOD period, when larger, wins
        CompiledStateTree tree = compile(tree("Periods").param("go", "bool", false)
                .root(state("Root")
                        .child(state("Slow").tickPeriod(4)
                                .task(node("waitUntil").with("condition", node("bool").with("param", "go")))
                                .transition(on("onStateSucceeded").to("Root/Fast")))
                        .child(state("Fast").task(node("waitUntil").with("condition", node("bool").with("param", "go")))))
                .build());
        int agents = 1000;
        long hash = 0;
        for (int w : new int[] {1, 2, 3}) {
            try (StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, 1, w, 64);
                 ReferenceInterpreter ref = new ReferenceInterpreter(tree, agents, 1,
                         ReferenceInterpreter.TickMode.SCHEDULED)) {
                sys.startAll(0);
                ref.startAll(0);
                assertEquals(1, sys.tickPeriod(0), "the period in effect changes only at a step aligned to both");
                for (int k = 1; k <= 60; k++) {
                    if (k == 10 || k == 30) {
                        setPeriod(sys, ref, k == 10 ? 8 : 2); // LOD 8: max(8, 4); LOD 2: max(2, 4) = 4 again
                    }
                    if (k == 45) {
                        sys.setParameter(StateTreeRuntime.ALL, "go", 1.0); // Slow -> Fast: the LOD period, 2
                        ref.setParameter(StateTreeRuntime.ALL, "go", 1.0);
                    }
                    sys.tickAll(k, 0.1f);
                    ref.tickAll(k, 0.1f);
                    for (int a = 0; a < agents; a += 37) {
                        assertEquals(ref.tickPeriod(a), sys.tickPeriod(a), "agent " + a + " at tick " + k);
                    }
                    int expected = k >= 8 && k < 10 || k >= 37 && k < 45 ? agents / 4 : k >= 18 && k < 30 ? agents / 8
                            : k >= 55 ? agents / 2 : -1; // every agent has switched: those taking part are awake
                    if (expected >= 0) {
                        assertEquals(expected, sys.awakeLastTick(), "awake agents at tick " + k);
                        assertEquals(expected, ref.awakeLastTick(), "awake agents at tick " + k + " (reference)");
                    }
                }
                assertEquals(2, sys.tickPeriod(0));
                assertEquals("Root/Fast", sys.activePath(0));
                if (w == 1) {
                    hash = sys.world().contentHash();
                } else {
                    assertEquals(hash, sys.world().contentHash(), "hash with " + w + " workers");
                }
            }
        }
    }

    private static void setPeriod(StateTreeSystem sys, ReferenceInterpreter ref, int period) {
        sys.setTickPeriod(StateTreeRuntime.ALL, period);
        ref.setTickPeriod(StateTreeRuntime.ALL, period);
    }

    @Test
    void badPeriodsAndChunksAreRejectedWithTheValidValues() throws Exception {
        CompiledStateTree tree = compile(CrowdTrees.napper());
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 2, 1, 1, 64)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sys.setTickPeriod(1, 3));
            assertEquals("tick period 3 for agent 1 is not valid; valid periods are 1, 2, 4, 8, 16, 32, 64", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> sys.setTickPeriod(1, 128));
            assertThrows(IllegalArgumentException.class, () -> sys.setTickPeriod(5, 2));
        }
        World w = World.builder().workers(1).chunkSize(1 << 16).build();
        try {
            SoaTable t = w.createTable("agents");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new StateTreeSystem(w, t, tree));
            assertTrue(e.getMessage().contains("valid range is 1..32768"), e.getMessage());
        } finally {
            w.close();
        }
    }
}
