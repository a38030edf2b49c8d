package dev.crowdtree.core;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The content hash by agent (the world hash a split world needs, issue 12): independent of the
 * order of the rows and of which table holds an agent, sensitive to any value.
 */
class HashByAgentTest {
    /** A world of {@code tables} tables holding agents 0..n-1 (round robin), x = id * 0.5, k = id * 3. */
    private static World world(int n, int tables) {
        World w = World.builder().workers(1).chunkSize(16).seed(1).maxAgents(n).initialCapacity(n).build();
        SoaTable[] ts = new SoaTable[tables];
        for (int i = 0; i < tables; i++) {
            ts[i] = w.createTable("t" + i);
            ts[i].addFloat("x");
            ts[i].addInt("k");
        }
        for (int id = 0; id < n; id++) {
            SoaTable t = ts[id % tables];
            SpawnInitializer init = (tb, row, agent, arg) -> {
                ((FloatColumn) tb.column("x")).set(row, agent * 0.5f);
                ((IntColumn) tb.column("k")).set(row, agent * 3);
            };
            w.commands().spawn(t, init, 0);
        }
        w.sync();
        return w;
    }

    @Test
    void theHashDoesNotDependOnRowOrderNorOnTheTableOfAnAgent() {
        try (World one = world(100, 1); World three = world(100, 3); World moved = world(100, 1)) {
            long h = one.contentHashByAgent();
            assertEquals(h, three.contentHashByAgent(), "the same agents in three tables");
            SoaTable t = moved.tables().get(0);
            int[] order = new int[t.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = order.length - 1 - i;
            }
            long rowOrderHash = t.contentHash();
            moved.reorder(t, order);
            assertNotEquals(rowOrderHash, t.contentHash(), "the row-order hash sees the reorder");
            assertEquals(h, moved.contentHashByAgent(), "the hash by agent does not");
            ((FloatColumn) t.column("x")).set(5, 1e6f);
            assertNotEquals(h, moved.contentHashByAgent(), "a changed value changes it");
        }
    }
}
