package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.StateTreeBuilder;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nodes bind to host columns and externals, not to a world: a tree declares what it reads and
 * writes, runs on any table that has those columns, fails clearly on one that lacks them, and with
 * access checks on, a kernel that writes a column it did not declare is caught.
 */
class HostColumnsTest {
    /** A host object: the factor {@code push} multiplies speed with. */
    static final class Gain {
        float value = 2f;
    }

    /** {@code push}: {@code pos += speed * gain} per tick; reads speed, writes pos, needs a Gain. */
    static final class PushTask extends Task {
        private final int pos;
        private final int speed;
        private final External<Gain> gain;

        PushTask(NodeConfig c) {
            super(c, true);
            pos = c.column("pos");
            speed = c.column("speed");
            gain = c.external("gain", Gain.class);
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            float[] p = ctx.hostFloats(pos);
            float[] s = ctx.hostFloats(speed);
            float g = ctx.external(gain).value;
            for (int i = from; i < to; i++) {
                p[rows[i]] += s[rows[i]] * g;
            }
        }
    }

    /** {@code sneak}: declares speed as read only, but writes it. */
    static final class SneakTask extends Task {
        private final int speed;

        SneakTask(NodeConfig c) {
            super(c, true);
            speed = c.column("speed");
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            ctx.hostFloats(speed)[rows[from]] += 1f;
        }
    }

    static NodeRegistry registry() {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.task("push").reads("speed", HostColumn.Type.FLOAT).writes("pos", HostColumn.Type.FLOAT)
                .external("gain", Gain.class).factory(PushTask::new).build());
        r.register(NodeType.task("sneak").reads("speed", HostColumn.Type.FLOAT).factory(SneakTask::new).build());
        r.register(NodeType.task("countAsInt").reads("speed", HostColumn.Type.INT).factory(SneakTask::new).build());
        return r;
    }

    static CompiledStateTree tree(String taskType) throws StateTreeCompileException {
        return new StateTreeCompiler(registry()).compile(StateTreeBuilder.tree("Host")
                .root(state("Root").child(state("Go").task(node(taskType)))).build());
    }

    @Test
    void theCompiledTreeListsTheHostColumnsAndExternalsItsNodesDeclare() throws Exception {
        CompiledStateTree t = tree("push");
        assertEquals(List.of(new HostColumn("speed", HostColumn.Type.FLOAT, HostColumn.Access.READ),
                new HostColumn("pos", HostColumn.Type.FLOAT, HostColumn.Access.WRITE)), t.hostColumns);
        assertEquals(1, t.externals.size());
        assertEquals("gain", t.externals.get(0).name());
        assertTrue(tree("run").hostColumns.isEmpty(), "built-in nodes need no host data");
    }

    @Test
    void aTreeRunsOnAnyTableWithTheDeclaredColumnsAndReadsItsExternal() throws Exception {
        CompiledStateTree t = tree("push");
        try (World w = World.builder().workers(2).chunkSize(64).maxAgents(500).initialCapacity(16).build()) {
            SoaTable table = w.createTable("walkers");
            table.addInt("unrelated");
            FloatColumn speed = table.addFloat("speed");
            FloatColumn pos = table.addFloat("pos");
            StateTreeSystem sys = new StateTreeSystem(w, table, t);
            for (int i = 0; i < 300; i++) { // more than the initial capacity: the table grows
                w.commands().spawn(table, sys.spawnInitializer((tb, row, id, arg) -> speed.set(row, id)), 0);
            }
            w.sync();
            Gain gain = new Gain();
            sys.bindExternal("gain", gain);
            sys.startAll(0);
            for (int k = 1; k <= 3; k++) {
                sys.tickAll(k, 0.1f);
            }
            gain.value = 0.5f;
            sys.tickAll(4, 0.1f);
            for (int id = 0; id < 300; id++) {
                assertEquals(id * 6.5f, pos.get(w.rowOf(id)), "agent " + id);
            }
        }
    }

    @Test
    void aTableWithoutADeclaredColumnIsRefusedNamingTheColumnAndWhatTheTableHas() throws Exception {
        CompiledStateTree t = tree("push");
        try (World w = World.builder().workers(1).maxAgents(10).initialCapacity(10).build()) {
            SoaTable table = w.createTable("walkers");
            table.addFloat("pos");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new StateTreeSystem(w, table, t));
            assertTrue(e.getMessage().contains("tree 'Host' needs host column speed (float, read)"), e.getMessage());
            assertTrue(e.getMessage().contains("table 'walkers' has no column of that name"), e.getMessage());
            assertTrue(e.getMessage().contains("pos:float"), e.getMessage());
        }
        try (World w = World.builder().workers(1).maxAgents(10).initialCapacity(10).build()) {
            SoaTable table = w.createTable("walkers");
            table.addInt("speed");
            table.addFloat("pos");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new StateTreeSystem(w, table, t));
            assertTrue(e.getMessage().contains("column 'speed' of table 'walkers' holds int values"), e.getMessage());
        }
    }

    @Test
    void externalsMustBeBoundWithTheDeclaredTypeBeforeTheFirstTickInBothRuntimes() throws Exception {
        CompiledStateTree t = tree("push");
        try (StateTreeSystem sys = StateTreeSystem.standalone(t, 4, 1, 1, 64);
             ReferenceInterpreter ref = new ReferenceInterpreter(t, 4, 1)) {
            for (StateTreeRuntime rt : List.<StateTreeRuntime>of(sys, ref)) {
                IllegalStateException unbound = assertThrows(IllegalStateException.class, () -> rt.startAll(0));
                assertTrue(unbound.getMessage().contains("needs external gain"), unbound.getMessage());
                IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                        () -> rt.bindExternal("gain", "not a gain"));
                assertTrue(wrong.getMessage().contains("must be a " + Gain.class.getName()), wrong.getMessage());
                IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                        () -> rt.bindExternal("speed", new Gain()));
                assertTrue(unknown.getMessage().contains("needs no external 'speed'"), unknown.getMessage());
                rt.bindExternal("gain", new Gain());
                rt.startAll(0);
                rt.tickAll(1, 0.1f);
            }
        }
    }

    @Test
    void accessChecksCatchAKernelWritingAColumnItOnlyDeclaredAsRead() throws Exception {
        CompiledStateTree t = tree("sneak");
        try (StateTreeSystem sys = StateTreeSystem.standalone(t, 4, 1, 1, 64)) {
            sys.startAll(0);
            sys.tickAll(1, 0.1f); // checks off: nothing is looked at
            sys.setAccessChecks(true);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> sys.tickAll(2, 0.1f));
            assertTrue(e.getMessage().contains("wrote host column(s) [speed]"), e.getMessage());
        }
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree("push"), 4, 1, 1, 64)) {
            sys.bindExternal("gain", new Gain());
            sys.setAccessChecks(true);
            sys.startAll(0);
            sys.tickAll(1, 0.1f); // writes only what it declared
        }
    }

    @Test
    void oneTreeCannotReadOneColumnWithTwoTypes() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () ->
                new StateTreeCompiler(registry()).compile(StateTreeBuilder.tree("Host").root(state("Root")
                        .task(node("sneak")).child(state("Go").task(node("countAsInt")))).build()));
        assertTrue(e.getMessage().contains("node type 'countAsInt' declares host column 'speed' as int but node type"
                + " 'sneak' declares it as float"), e.getMessage());
    }
}
