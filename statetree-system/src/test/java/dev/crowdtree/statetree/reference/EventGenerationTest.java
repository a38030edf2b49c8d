package dev.crowdtree.statetree.reference;

import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Events are addressed by agent handle, id and generation (issue 11): an event on its way to an
 * agent that is despawned before it arrives is dropped and counted, not delivered to the next
 * agent given the same id; events sent after the new agent exists reach it.
 */
class EventGenerationTest {
    private static final String TREE = "{\"name\": \"Pings\", \"parameters\": {\"sender\": {\"type\": \"bool\", \"default\": false}},"
            + " \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"Sender\", \"enterConditions\": [{\"type\": \"bool\", \"param\": \"sender\"}],"
            + " \"tasks\": [{\"type\": \"tickSendNext\", \"tag\": \"Ping\", \"agents\": 3}]},"
            + "{\"name\": \"Listener\", \"tasks\": [{\"type\": \"run\"}],"
            + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Ping\", \"to\": \"Got\"}]},"
            + "{\"name\": \"Got\", \"tasks\": [{\"type\": \"run\"}]}]}}";

    private static final String ENTITY_TREE = "{\"name\": \"Handles\", \"parameters\": {\"sender\": {\"type\": \"bool\","
            + " \"default\": false}, \"target\": {\"type\": \"entity\"}},"
            + " \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"Sender\", \"enterConditions\": [{\"type\": \"bool\", \"param\": \"sender\"}],"
            + " \"tasks\": [{\"type\": \"tickSendEntity\", \"tag\": \"Ping\", \"target\": \"target\"}]},"
            + "{\"name\": \"Listener\", \"tasks\": [{\"type\": \"run\"}],"
            + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Ping\", \"to\": \"Got\"}]},"
            + "{\"name\": \"Got\", \"tasks\": [{\"type\": \"run\"}]}]}}";

    @Test
    void anEntityParameterIsAHandleThatGoesStaleWithItsAgent() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("handles.json", ENTITY_TREE, TestNodes.compiler());
        try (Three three = new Three(tree, 1)) {
            StateTreeSystem sys = three.sys;
            sys.setParameter(0, "sender", 1);
            sys.setParameter(0, "target", 1); // agent 0 holds a handle to agent 1
            sys.startAll(0);
            three.reuseId(1);
            sys.startNew(0);
            long dropped = sys.droppedEvents();
            for (int k = 1; k <= 3; k++) {
                sys.tickAll(k, 0.1f); // a send each tick, dropped when the next tick distributes it
            }
            assertEquals("Root/Listener", sys.activePath(1), "the handle names the agent that is gone");
            assertEquals(dropped + 2, sys.droppedEvents(), "the sends to the stale handle are dropped and counted");
            sys.setParameter(0, "target", 1); // now a handle to the new agent
            sys.tickAll(4, 0.1f);
            sys.tickAll(5, 0.1f);
            assertEquals("Root/Got", sys.activePath(1));
        }
        try (ReferenceInterpreter ri = new ReferenceInterpreter(tree, 3, 1)) { // ids are not reused there
            ri.setParameter(0, "sender", 1);
            ri.setParameter(0, "target", 2);
            ri.startAll(0);
            ri.tickAll(1, 0.1f);
            ri.tickAll(2, 0.1f);
            assertEquals("Root/Got", ri.activePath(2));
        }
    }

    @Test
    void anEventForADespawnedAgentDoesNotReachTheNextAgentWithItsId() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("pings.json", TREE, TestNodes.compiler());
        try (Three three = new Three(tree, 2)) {
            StateTreeSystem sys = three.sys;
            sys.setParameter(0, "sender", 1);
            sys.startAll(0);
            assertEquals("Root/Sender", sys.activePath(0));
            assertEquals("Root/Listener", sys.activePath(1));

            sys.tickAll(1, 0.1f);              // agent 0 pings agent 1 (delivered at tick 2)
            sys.sendEvent(1, "Ping", 0f, false); // and so does the host
            long dropped = sys.droppedEvents();
            three.reuseId(1);
            assertTrue(three.world.isLive(1), "the new agent got id 1");
            sys.startNew(1);
            sys.tickAll(2, 0.1f);
            assertEquals("Root/Listener", sys.activePath(1), "the pings were for the agent that is gone");
            assertEquals(dropped + 2, sys.droppedEvents(), "both stale pings are counted as dropped");

            sys.tickAll(3, 0.1f);              // tick 2's ping was sent to the new agent
            assertEquals("Root/Got", sys.activePath(1));
        }
    }

    @Test
    void anEventForAnAgentPlacedAgainWithAnotherGenerationIsDropped() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("pings.json", TREE, TestNodes.compiler());
        World world = World.builder().workers(1).chunkSize(64).seed(3).maxAgents(8).initialCapacity(8).build();
        try (world) {
            SoaTable table = world.createTable("agents");
            StateTreeSystem sys = new StateTreeSystem(world, table, tree);
            SpawnInitializer init = sys.spawnInitializer(SpawnInitializer.NONE);
            world.place(table, 0, 0, init, 0);
            world.place(table, 1, 0, init, 0);
            sys.startAll(0);
            sys.sendEvent(1, "Ping", 0f, false); // for incarnation 0 of agent 1
            long dropped = sys.droppedEvents();
            world.emigrate(1);
            world.place(table, 1, 7, init, 0);   // back as another incarnation
            sys.startNew(1);
            sys.tickAll(1, 0.1f);
            assertEquals("Root/Listener", sys.activePath(1), "the event was for the incarnation that left");
            assertEquals(dropped + 1, sys.droppedEvents());
            sys.sendEvent(1, "Ping", 0f, false); // for incarnation 7
            sys.tickAll(2, 0.1f);
            assertEquals("Root/Got", sys.activePath(1));
        }
    }

    /** Three agents in a world of their own, where ids are reused. */
    private static final class Three implements AutoCloseable {
        final World world;
        final SoaTable table;
        final StateTreeSystem sys;
        final SpawnInitializer init;

        Three(CompiledStateTree tree, int workers) {
            world = World.builder().workers(workers).chunkSize(64).seed(3).maxAgents(8).initialCapacity(8).build();
            table = world.createTable("agents");
            sys = new StateTreeSystem(world, table, tree);
            init = sys.spawnInitializer(SpawnInitializer.NONE);
            for (int i = 0; i < 3; i++) {
                world.commands().spawn(table, init, 0);
            }
            world.sync();
        }

        /** Despawns agent {@code id} and spawns another, which gets the same id with a new generation. */
        void reuseId(int id) {
            world.commands().despawn(id);
            world.sync();
            world.commands().spawn(table, init, 0);
            world.sync();
        }

        @Override
        public void close() {
            world.close();
        }
    }
}
