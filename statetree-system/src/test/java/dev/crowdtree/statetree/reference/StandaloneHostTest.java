package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standalone runs (no host program): the values node providers give a tree's host columns and
 * externals, what is reported when one is missing, host values set per agent, and scenario inputs
 * that set host columns; the same in both runtimes.
 */
class StandaloneHostTest {
    /** The host object {@code push} multiplies by. */
    static final class Gain {
        final float value;

        Gain(float value) {
            this.value = value;
        }
    }

    /** {@code near}: the agent's host column {@code distance} is at most 10. */
    static final class NearCondition extends Condition {
        private final int distance;

        NearCondition(NodeConfig c) {
            super(c);
            distance = c.column("distance");
        }

        @Override
        public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
            float[] d = ctx.hostFloats(distance);
            for (int i = from; i < to; i++) {
                out[i] = d[rows[i]] <= 10;
            }
        }
    }

    /** {@code push}: {@code pos += gain} per tick (int column {@code pos}). */
    static final class PushTask extends Task {
        private final int pos;
        private final External<Gain> gain;

        PushTask(NodeConfig c) {
            super(c, true);
            pos = c.column("pos");
            gain = c.external("gain", Gain.class);
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            int[] p = ctx.hostInts(pos);
            int g = (int) ctx.external(gain).value;
            for (int i = from; i < to; i++) {
                p[rows[i]] += g;
            }
        }
    }

    private static final String TREE = "{\"name\": \"Host\", \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"Wait\", \"tasks\": [{\"type\": \"run\"}],"
            + "  \"transitions\": [{\"trigger\": \"onTick\", \"to\": \"Go\", \"conditions\": [{\"type\": \"near\"}]}]},"
            + "{\"name\": \"Go\", \"tasks\": [{\"type\": \"push\"}]}]}}";

    private static NodeRegistry types() {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.condition("near").reads("distance", HostColumn.Type.FLOAT).factory(NearCondition::new).build());
        r.register(NodeType.task("push").writes("pos", HostColumn.Type.INT).external("gain", Gain.class)
                .factory(PushTask::new).build());
        return r;
    }

    private static CompiledStateTree tree() throws Exception {
        return StateTreeJson.compile("host.json", TREE, new StateTreeCompiler(types()));
    }

    private static NodeRegistry withStandaloneValues(AtomicInteger gains) {
        return types().standaloneColumn("distance", 50).standaloneColumn("pos", 3)
                .standaloneExternal("gain", Gain.class, () -> {
                    gains.incrementAndGet();
                    return new Gain(2);
                });
    }

    private static List<StateTreeRuntime> bothRuntimes(CompiledStateTree t, int agents, NodeRegistry r) {
        List<StateTreeRuntime> out = new ArrayList<>();
        for (RuntimeFactory f : List.<RuntimeFactory>of(StateTreeSystem::create, ScenarioRunner.REFERENCE)) {
            out.add(StandaloneHost.factory(f, r).create(t, agents, 1, 2));
        }
        return out;
    }

    @Test
    void theCompiledTreeSaysWhichTypesItUsesAndWhichNodeNeedsEachColumnAndExternal() throws Exception {
        CompiledStateTree t = tree();
        assertEquals(Set.of("run", "near", "push"), t.nodeTypes);
        assertEquals("condition 'near' (transitions[0].conditions[0] of state 'Root/Wait')", t.hostColumnUsers.get("distance"));
        assertEquals("task 'push' (tasks[0] of state 'Root/Go')", t.hostColumnUsers.get("pos"));
        assertEquals("task 'push' (tasks[0] of state 'Root/Go')", t.externalUsers.get("gain"));
    }

    @Test
    void whatNoProviderGivesIsNamedWithTheNodeThatNeedsIt() throws Exception {
        CompiledStateTree t = tree();
        List<String> unmet = StandaloneHost.unmet(t, types());
        assertEquals(3, unmet.size(), unmet.toString());
        assertTrue(unmet.get(0).startsWith("host column 'distance' (float, read), needed by condition 'near' "
                + "(transitions[0].conditions[0] of state 'Root/Wait'), has no standalone value"), unmet.get(0));
        assertTrue(unmet.get(1).startsWith("host column 'pos' (int, written), needed by task 'push'"), unmet.get(1));
        assertTrue(unmet.get(2).startsWith("external 'gain' (" + Gain.class.getName() + "), needed by task 'push'"),
                unmet.get(2));
        NodeRegistry halfAnInt = types().standaloneColumn("distance", 1).standaloneColumn("pos", 0.5)
                .standaloneExternal("gain", Gain.class, () -> new Gain(1));
        List<String> badValue = StandaloneHost.unmet(t, halfAnInt);
        assertEquals(1, badValue.size(), badValue.toString());
        assertTrue(badValue.get(0).contains("its standalone value does not fit: host column 'pos' is int; 0.5 does not "
                + "fit it"), badValue.get(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StandaloneHost.factory(StateTreeSystem::create, types()).create(t, 2, 1, 1));
        assertTrue(e.getMessage().startsWith("tree 'Host' needs what no loaded node provider gives: host column "
                + "'distance'"), e.getMessage());
        assertTrue(StandaloneHost.unmet(t, withStandaloneValues(new AtomicInteger())).isEmpty());
    }

    @Test
    void everyAgentStartsWithTheStandaloneValuesAndEachRuntimeGetsItsOwnExternal() throws Exception {
        AtomicInteger gains = new AtomicInteger();
        CompiledStateTree t = tree();
        List<StateTreeRuntime> runtimes = bothRuntimes(t, 5, withStandaloneValues(gains));
        assertEquals(2, gains.get(), "one external per runtime");
        for (StateTreeRuntime rt : runtimes) {
            try (rt) {
                for (int a = 0; a < 5; a++) {
                    assertEquals(50.0, rt.hostValue(a, "distance"));
                    assertEquals(3.0, rt.hostValue(a, "pos"));
                }
                rt.startAll(0);
                rt.setHostValue(2, "distance", 4.5); // agent 2 only
                rt.tickAll(1, 0.1f);
                assertEquals("Root/Go", rt.activePath(2));
                assertEquals("Root/Wait", rt.activePath(1));
                rt.tickAll(2, 0.1f);
                assertEquals(5.0, rt.hostValue(2, "pos"), "3 + the gain of 2, once");
                rt.setHostValue(StateTreeRuntime.ALL, "distance", 0);
                rt.tickAll(3, 0.1f);
                assertEquals("Root/Go", rt.activePath(4));
            }
        }
        assertNotSame(runtimes.get(0), runtimes.get(1));
    }

    @Test
    void aHostValueMustNameADeclaredColumnAndFitItsType() throws Exception {
        CompiledStateTree t = tree();
        for (StateTreeRuntime rt : bothRuntimes(t, 2, withStandaloneValues(new AtomicInteger()))) {
            try (rt) {
                IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                        () -> rt.setHostValue(0, "distanse", 1));
                assertEquals("tree 'Host' has no host column 'distanse'; its nodes declare [distance (float, read), "
                        + "pos (int, written)]", unknown.getMessage());
                IllegalArgumentException notAnInt = assertThrows(IllegalArgumentException.class,
                        () -> rt.setHostValue(0, "pos", 1.5));
                assertEquals("host column 'pos' is int; 1.5 does not fit it (valid: an integer in 32-bit range)",
                        notAnInt.getMessage());
                assertThrows(IllegalArgumentException.class, () -> rt.setHostValue(0, "distance", Double.NaN));
                assertThrows(IllegalArgumentException.class, () -> rt.setHostValue(7, "distance", 1));
            }
        }
    }

    @Test
    void aScenarioSetsAHostColumnAndBothRuntimesTraceTheSame() throws Exception {
        CompiledStateTree t = tree();
        NodeRegistry r = withStandaloneValues(new AtomicInteger());
        Scenario s = Scenario.parse("{\"ticks\": 5, \"agents\": 2, \"inputs\": ["
                + "{\"tick\": 3, \"agent\": 1, \"column\": \"distance\", \"value\": 4.5}]}", "s.json", null);
        Scenario.ColumnInput in = (Scenario.ColumnInput) s.inputs().get(0);
        assertEquals("distance", in.column());
        assertEquals(4.5, in.value());
        List<String> batched = ScenarioRunner.run(s, t, StandaloneHost.factory(StateTreeSystem::create, r));
        List<String> reference = ScenarioRunner.run(s, t, StandaloneHost.factory(ScenarioRunner.REFERENCE, r));
        assertEquals(reference, batched);
        assertTrue(batched.stream().anyMatch(l -> l.startsWith("a1 3 transition Root/Wait -> Root/Go")), batched.toString());
        assertTrue(batched.stream().noneMatch(l -> l.startsWith("a0 ") && l.contains("transition")), batched.toString());
    }

    @Test
    void aColumnInputIsCheckedAgainstTheTreesColumns() throws Exception {
        CompiledStateTree t = tree();
        RuntimeFactory f = StandaloneHost.factory(StateTreeSystem::create, withStandaloneValues(new AtomicInteger()));
        ScenarioException unknown = assertThrows(ScenarioException.class, () -> ScenarioRunner.run(Scenario.parse(
                "{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"column\": \"speed\", \"value\": 1}]}", "s.json", null), t, f));
        assertEquals("inputs[0].column", unknown.field());
        assertTrue(unknown.getMessage().contains("tree 'Host' has no host column 'speed'; its nodes declare "
                + "[distance (float, read), pos (int, written)]"), unknown.getMessage());
        ScenarioException notAnInt = assertThrows(ScenarioException.class, () -> ScenarioRunner.run(Scenario.parse(
                "{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"column\": \"pos\", \"value\": 2.5}]}", "s.json", null), t, f));
        assertEquals("inputs[0].value", notAnInt.field());
        for (String bad : List.of("{\"tick\": 1, \"column\": \"pos\"}", "{\"tick\": 1, \"value\": 3}",
                "{\"tick\": 1, \"column\": \"pos\", \"value\": \"high\"}", "{\"tick\": 1, \"column\": 3, \"value\": 3}",
                "{\"tick\": 1, \"column\": \"pos\", \"value\": 3, \"stop\": true}")) {
            assertThrows(ScenarioException.class, () -> Scenario.parse("{\"ticks\": 1, \"inputs\": [" + bad + "]}",
                    "s.json", null), bad);
        }
        Scenario flag = Scenario.parse("{\"ticks\": 1, \"inputs\": [{\"tick\": 1, \"column\": \"pos\", \"value\": true}]}",
                "s.json", null);
        assertEquals(1.0, ((Scenario.ColumnInput) flag.inputs().get(0)).value(), "a boolean is 1 or 0");
    }
}
