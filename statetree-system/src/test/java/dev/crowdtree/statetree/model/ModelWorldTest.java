package dev.crowdtree.statetree.model;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelWorldTest {
    static final ModelDefinition WALKERS = new Walkers().define();

    static NodeRegistry registry(ModelDefinition def) {
        NodeRegistry r = BuiltinNodes.registry();
        def.nodes().forEach(p -> p.register(r));
        return r;
    }

    static CompiledStateTree tree(ModelDefinition def) throws Exception {
        return StateTreeJson.compile(def.trees().get(0).name(), def.trees().get(0).text().get(),
                new StateTreeCompiler(registry(def)));
    }

    static ModelWorld world(ModelWorld.Settings s) throws Exception {
        return ModelWorld.create(WALKERS, tree(WALKERS), registry(WALKERS), s);
    }

    static ModelWorld.Settings settings(int workers) {
        return ModelWorld.Settings.of(WALKERS).withWorkers(workers).withSeed(7).withChunkSize(64);
    }

    @Test
    void sameSeedSameWorldOnAnyNumberOfWorkers() throws Exception {
        long[] hashes = new long[4];
        int[] workers = {1, 2, 3, 8};
        for (int i = 0; i < workers.length; i++) {
            try (ModelWorld w = world(settings(workers[i]))) {
                for (int t = 0; t < 60; t++) {
                    w.tick();
                }
                hashes[i] = w.contentHash();
                int north = w.tree().stateByPath("Root/North");
                int[] occ = new int[w.tree().stateCount];
                w.system().countActiveStates(occ);
                assertTrue(occ[north] > 0, "some walkers were crowded and turned north");
            }
        }
        for (long h : hashes) {
            assertEquals(hashes[0], h, "the world hash on 1, 2, 3 and 8 workers");
        }
    }

    @Test
    void everyAgentStartsWithItsColumnsInitialValue() throws Exception {
        try (ModelWorld w = world(settings(2))) {
            FloatColumn x = (FloatColumn) w.table().column("x");
            IntColumn spawned = (IntColumn) w.table().column("spawnedAs");
            int[] ids = w.table().agentIds().data();
            assertEquals(500, w.table().size());
            for (int r = 0; r < w.table().size(); r++) {
                float expected = (float) ColumnInit.uniform(0, 100, 11).initial(7, ids[r], ids[r]);
                assertEquals(expected, x.data()[r], "x of agent " + ids[r]);
                assertEquals(ids[r], spawned.data()[r], "the spawn index of agent " + ids[r]);
            }
            assertNotEquals(x.data()[0], x.data()[1], "per agent, not one value for all");
        }
    }

    @Test
    void hostSystemsRunBeforeAndAfterTheTreesAndAreTimedAsPhases() throws Exception {
        try (ModelWorld w = world(settings(1))) {
            assertArrayEquals(new String[] {"neighbourhood", "sense", "statetree", "move", "sync"}, w.phases());
            FloatColumn x = (FloatColumn) w.table().column("x");
            float before = x.data()[0];
            w.tick();
            assertNotEquals(before, x.data()[0], "move ran after the tree set the velocity");
            assertEquals(1, w.metrics().phase(1).getTotalCount());
            assertEquals(1, w.statesHash(), "move counted one tick");
        }
    }

    @Test
    void theNeighbourhoodFindsWhatABruteForceScanFinds() throws Exception {
        try (ModelWorld w = world(settings(2))) {
            w.tick();
            // some agents outside the world's bounds (100 x 100): the grid wraps, and still finds them
            float[] x = ((FloatColumn) w.table().column("x")).data();
            float[] y = ((FloatColumn) w.table().column("y")).data();
            for (int r = 0; r < w.table().size(); r += 5) {
                x[r] = r % 2 == 0 ? x[r] + 100 * (1 + r % 3) : -x[r];
                y[r] = r % 3 == 0 ? y[r] + 250 : y[r];
            }
            Neighbourhood n = w.neighbourhood();
            n.build(w.table());
            int[] out = new int[600];
            for (int e = 0; e < n.size(); e += 7) {
                float px = n.xs()[e];
                float py = n.ys()[e];
                int k = n.near(px, py, 3.5f, out);
                List<Integer> got = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    got.add(out[i]);
                }
                List<Integer> want = new ArrayList<>();
                for (int j = 0; j < n.size(); j++) {
                    float dx = n.xs()[j] - px;
                    float dy = n.ys()[j] - py;
                    if (dx * dx + dy * dy <= 3.5f * 3.5f) {
                        want.add(j);
                    }
                }
                got.sort(null);
                assertEquals(want, got, "entries near entry " + e);
            }
            assertThrows(IllegalArgumentException.class, () -> n.near(0, 0, 5, out), "beyond the reach");
        }
    }

    @Test
    void aSnapshotRestoredIntoAFreshWorldGoesOnAsTheOriginal() throws Exception {
        try (ModelWorld a = world(settings(2))) {
            for (int t = 0; t < 25; t++) {
                a.tick();
            }
            ByteArrayOutputStream runtime = new ByteArrayOutputStream();
            a.system().snapshot(runtime);
            ByteArrayOutputStream state = new ByteArrayOutputStream();
            a.saveState(new DataOutputStream(state));
            try (ModelWorld b = world(settings(3))) {
                b.system().restore(new ByteArrayInputStream(runtime.toByteArray()));
                b.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
                assertEquals(a.contentHash(), b.contentHash());
                assertEquals(25, b.tickNumber());
                for (int t = 0; t < 25; t++) {
                    a.tick();
                    b.tick();
                }
                assertEquals(a.contentHash(), b.contentHash(), "the same 25 ticks after the restore");
            }
        }
    }

    @Test
    void aRegionHoldsTheAgentsItsFilterKeepsWithTheirWholeWorldIds() throws Exception {
        ModelWorld.Settings s = settings(1).holding((id, px, py) -> px < 50);
        try (ModelWorld west = world(s); ModelWorld all = world(settings(1))) {
            FloatColumn x = (FloatColumn) west.table().column("x");
            int held = 0;
            FloatColumn ax = (FloatColumn) all.table().column("x");
            for (int r = 0; r < all.table().size(); r++) {
                held += ax.data()[r] < 50 ? 1 : 0;
            }
            assertEquals(held, west.table().size());
            for (int r = 0; r < west.table().size(); r++) {
                assertTrue(x.data()[r] < 50);
                int id = west.table().agentIds().data()[r];
                assertEquals(ax.data()[all.world().rowOf(id)], x.data()[r], "agent " + id + " starts where it does in the whole world");
            }
        }
    }

    @Test
    void lodGivesFarAgentsLongerTickPeriods() throws Exception {
        ModelWorld.Settings s = settings(2).withLod(LodBands.scaledTo(100), 0, 0);
        try (ModelWorld w = world(s)) {
            for (int t = 0; t < 20; t++) {
                w.tick(); // a period asked for takes effect at the agent's next step on the period's grid
            }
            assertTrue(List.of(w.phases()).contains("lod"));
            int[] bands = new int[4];
            w.countLodBands(bands);
            assertEquals(500, bands[0] + bands[1] + bands[2] + bands[3]);
            assertTrue(bands[3] > bands[0], "most walkers are beyond 25 m of the corner");
            FloatColumn x = (FloatColumn) w.table().column("x");
            FloatColumn y = (FloatColumn) w.table().column("y");
            int far = -1;
            for (int r = 0; r < w.table().size() && far < 0; r++) {
                if (x.data()[r] > 60 && y.data()[r] > 60) {
                    far = r;
                }
            }
            assertEquals(8, w.system().tickPeriod(w.table().agentIds().data()[far]));
        }
    }

    @Test
    void aSystemMayOnlyBindTheColumnsItDeclares() throws Exception {
        ModelDefinition sneaky = ModelDefinition.builder("sneaky")
                .column("a", dev.crowdtree.statetree.node.HostColumn.Type.FLOAT, 0)
                .column("b", dev.crowdtree.statetree.node.HostColumn.Type.FLOAT, 0)
                .tree("t.json", () -> "{\"name\": \"T\", \"root\": {\"name\": \"Root\"}}")
                .before(HostSystemSpec.named("peek").reads("a").factory(() -> new HostSystem() {
                    @Override
                    public void bind(SystemBinding b) {
                        b.floats("b");
                    }
                }))
                .build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelWorld.create(sneaky,
                tree(sneaky), registry(sneaky), ModelWorld.Settings.of(sneaky).withAgents(10).withWorkers(1)));
        assertEquals("host system 'peek' did not declare column 'b'; it reads [a] and writes [] "
                + "(HostSystemSpec.reads/writes)", e.getMessage());
    }

    @Test
    void aDefinitionWithMistakesIsRefusedInOneLine() {
        assertEquals("model 'm' declares no tree (ModelDefinition.Builder.tree or treeResource)",
                assertThrows(IllegalArgumentException.class, () -> ModelDefinition.builder("m").build()).getMessage());
        assertEquals("model 'm' position column 'px' must be a float column the model declares; it declares [x]",
                assertThrows(IllegalArgumentException.class, () -> ModelDefinition.builder("m")
                        .column("x", dev.crowdtree.statetree.node.HostColumn.Type.FLOAT, 0)
                        .positions("x", "px", 10, 10).tree("t", () -> "").build()).getMessage());
        assertEquals("model 'm' host system 's' uses column 'nope', which the model does not declare; it declares []",
                assertThrows(IllegalArgumentException.class, () -> ModelDefinition.builder("m").tree("t", () -> "")
                        .after(HostSystemSpec.named("s").writes("nope").factory(() -> b -> { })).build()).getMessage());
        assertEquals("model 'm' reads other agents (reach or shared columns) but declares no positions "
                        + "(ModelDefinition.Builder.positions)",
                assertThrows(IllegalArgumentException.class, () -> ModelDefinition.builder("m").tree("t", () -> "")
                        .reach(3).build()).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ModelDefinition.builder("9lives"));
    }

    @Test
    void aTreeThatUsesAModelColumnWithAnotherTypeIsRefused() throws Exception {
        ModelDefinition m = ModelDefinition.builder("typed")
                .column("crowded", dev.crowdtree.statetree.node.HostColumn.Type.FLOAT, 0)
                .column("vx", dev.crowdtree.statetree.node.HostColumn.Type.FLOAT, 0)
                .column("vy", dev.crowdtree.statetree.node.HostColumn.Type.FLOAT, 0)
                .tree("walk.json", () -> Walkers.TREE).nodes(new Walkers.Nodes()).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelWorld.create(m, tree(m), registry(m), ModelWorld.Settings.of(m).withAgents(5).withWorkers(1)));
        assertTrue(e.getMessage().startsWith("model 'typed' declares column 'crowded' as float, but tree 'Walk' uses it as int"),
                e.getMessage());
    }
}
