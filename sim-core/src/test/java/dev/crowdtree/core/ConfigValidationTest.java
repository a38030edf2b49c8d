package dev.crowdtree.core;

import dev.crowdtree.core.schedule.ChunkExecutor;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad configuration fails with an IllegalArgumentException naming parameter, value and range. */
class ConfigValidationTest {

    private static void assertNames(Executable e, String... parts) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        for (String p : parts) {
            assertTrue(ex.getMessage().contains(p), () -> "message '" + ex.getMessage() + "' lacks '" + p + "'");
        }
    }

    @Test
    void workersBelowOneIsRejected() {
        assertNames(() -> World.builder().workers(0), "workers", "0", "1..256");
        assertNames(() -> new ChunkExecutor(-3), "workers", "-3", "1..256");
    }

    @Test
    void chunkSizeMustBeAPositivePowerOfTwo() {
        assertNames(() -> World.builder().chunkSize(0), "chunkSize", "= 0", "power of two", "1..16777216");
        assertNames(() -> World.builder().chunkSize(-4096), "chunkSize", "-4096");
        assertNames(() -> World.builder().chunkSize(3000), "chunkSize", "3000", "power of two");
        try (ChunkExecutor ex = new ChunkExecutor(1)) {
            assertNames(() -> ex.run(c -> { }, 10, 100), "chunkSize", "100");
        }
    }

    @Test
    void capacityOverflowIsRejected() {
        assertNames(() -> World.builder().maxAgents(0), "maxAgents", "0", "1..1073741824");
        assertNames(() -> World.builder().maxAgents(10).initialCapacity(20).build(), "initialCapacity", "20", "0..10");
        assertNames(() -> new SoaTable("t", -1, 10), "initialCapacity", "-1", "0..10");
        SoaTable t = new SoaTable("t", 0, 4);
        assertNames(() -> t.ensureCapacity(5), "'t'", "capacity overflow", "5", "0..4");
        try (World w = World.builder().workers(1).maxAgents(2).initialCapacity(0).build()) {
            SoaTable a = w.createTable("a");
            for (int i = 0; i < 3; i++) {
                w.commands().spawn(a, (tb, row, id, arg) -> { }, 0);
            }
            assertNames(w::sync, "maxAgents = 2", "capacity overflow", "0..2");
            assertEquals(2, w.agentCount());
        }
    }

    @Test
    void aSmallMaxAgentsNeedsNoInitialCapacity() {
        // the default initial capacity (1024) shrinks to maxAgents; an explicit one above it still fails
        try (World w = World.builder().workers(1).maxAgents(10).build()) {
            SoaTable t = w.createTable("t");
            assertEquals(10, t.capacity());
            for (int i = 0; i < 10; i++) {
                w.commands().spawn(t, (tb, row, id, arg) -> { }, 0);
            }
            w.sync();
            assertEquals(10, w.agentCount());
        }
        try (World w = World.builder().workers(1).maxAgents(5000).build()) {
            assertEquals(1024, w.createTable("t").capacity(), "the default for a larger world is 1024");
        }
        assertNames(() -> World.builder().maxAgents(10).initialCapacity(11).build(),
                "initialCapacity = 11 is out of range", "0..10");
    }

    @Test
    void manyWorldsCanBeCreatedAndClosed() {
        // Dominion 0.9.0 can only create about 1023 instances per JVM; worlds reuse them when closed.
        for (int i = 0; i < 1500; i++) {
            try (World w = World.builder().workers(1).initialCapacity(0).maxAgents(10).build()) {
                SoaTable t = w.createTable("t");
                w.commands().spawn(t, (tb, row, id, arg) -> { }, 0);
                w.sync();
                assertEquals(1, w.agentCount());
                assertEquals(0, w.dominion().findEntitiesWith(dev.crowdtree.core.world.AgentHandle.class).stream().count(),
                        "entities are created on first use only");
                int id = t.agentAt(0);
                assertEquals(id, w.entity(id).get(dev.crowdtree.core.world.AgentHandle.class).id());
                assertEquals(1, w.dominion().findEntitiesWith(dev.crowdtree.core.world.AgentHandle.class).stream().count());
            }
        }
    }

    @Test
    void dtMustBePositiveAndFinite() {
        assertNames(() -> World.builder().dt(0f), "dt", "0.0");
        assertNames(() -> World.builder().dt(Float.NaN), "dt", "NaN");
        assertNames(() -> World.builder().dt(Float.POSITIVE_INFINITY), "dt", "Infinity");
    }

    @Test
    void duplicateColumnAndTableNamesAreRejected() {
        SoaTable t = new SoaTable("t", 0, 10);
        t.addFloat("x");
        assertNames(() -> t.addInt("x"), "'t'", "'x'", "unique");
        assertNames(() -> t.addInt(SoaTable.AGENT_ID_COLUMN), "agentId");
        try (World w = World.builder().workers(1).build()) {
            w.createTable("agents");
            assertNames(() -> w.createTable("agents"), "agents");
        }
    }
}
