package dev.crowdtree.core;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code World.spawnInOrder}: the next ids in a row, in the rows a permutation says, initialized on the
 * workers; the same table as spawning in id order and reordering by that permutation; bad input refused.
 */
class SpawnInOrderTest {
    private static final int ROWS = 100_000; // several chunks of the parallel initialization

    private static SpawnInitializer stamp(FloatColumn f, IntColumn i) {
        return (table, row, id, arg) -> {
            f.set(row, id * 0.5f + arg);
            i.set(row, id * 3 + 1);
        };
    }

    @Test
    void givesTheSameTableAsSpawningInIdOrderThenReordering() {
        int[] order = Permutations.random(ROWS, new SplittableRandom(11));
        for (int workers : new int[] {1, 3}) {
            try (World a = World.builder().workers(workers).maxAgents(ROWS + 10).build();
                 World b = World.builder().workers(workers).maxAgents(ROWS + 10).build()) {
                SoaTable ta = a.createTable("t");
                SoaTable tb = b.createTable("t");
                FloatColumn fa = ta.addFloat("f");
                IntColumn ia = ta.addInt("i");
                FloatColumn fb = tb.addFloat("f");
                IntColumn ib = tb.addInt("i");
                for (int k = 0; k < ROWS; k++) {
                    a.commands().spawn(ta, stamp(fa, ia), 7L);
                }
                a.sync();
                a.reorder(ta, order);
                assertEquals(0, b.spawnInOrder(tb, order, ROWS, stamp(fb, ib), 7L));
                assertEquals(ROWS, tb.size());
                assertEquals(ROWS, b.agentCount());
                for (int r = 0; r < ROWS; r++) {
                    int id = tb.agentAt(r);
                    assertEquals(order[r], id, "row " + r);
                    assertEquals(ta.agentAt(r), id);
                    assertEquals(r, b.rowOf(id), "the id index knows agent " + id + "'s row");
                    assertEquals(fa.get(r), fb.get(r));
                    assertEquals(ia.get(r), ib.get(r));
                    assertEquals(id * 3 + 1, ib.get(r));
                }
                // spawning goes on with the next id
                b.commands().spawn(tb, SpawnInitializer.NONE, 0L);
                b.sync();
                assertEquals(ROWS, tb.agentAt(ROWS));
            }
        }
    }

    @Test
    void continuesFromTheWorldsNextIdAndUsesOnlyThePrefixGiven() {
        try (World w = World.builder().workers(2).maxAgents(100).build()) {
            SoaTable t = w.createTable("t");
            IntColumn i = t.addInt("i");
            for (int k = 0; k < 3; k++) {
                w.commands().spawn(t, SpawnInitializer.NONE, 0L);
            }
            w.sync();
            int[] order = {2, 0, 1, 99, -5}; // only the first 3 entries count
            assertEquals(3, w.spawnInOrder(t, order, 3, (table, row, id, arg) -> i.set(row, id + 1000), 0L));
            assertEquals(6, t.size());
            assertEquals(5, t.agentAt(3));
            assertEquals(3, t.agentAt(4));
            assertEquals(4, t.agentAt(5));
            assertEquals(1005, i.get(3));
            assertEquals(1003, i.get(4));
            assertEquals(0, i.get(0), "earlier rows untouched");
        }
    }

    @Test
    void reserveGrowsEveryColumnOnTheWorkersAndKeepsTheRows() {
        try (World w = World.builder().workers(3).initialCapacity(4).maxAgents(1_000).build()) {
            SoaTable t = w.createTable("t");
            FloatColumn f = t.addFloat("f");
            IntColumn i = t.addInt("i");
            for (int k = 0; k < 4; k++) {
                w.commands().spawn(t, stamp(f, i), 2L);
            }
            w.sync();
            w.reserve(t, 700);
            assertEquals(700, t.capacity());
            for (var c : t.columns()) {
                assertEquals(700, java.lang.reflect.Array.getLength(c.array()), c.name());
            }
            for (int r = 0; r < 4; r++) {
                assertEquals(r * 0.5f + 2, f.get(r));
                assertEquals(r * 3 + 1, i.get(r));
            }
            w.reserve(t, 10); // fits: nothing changes
            assertEquals(700, t.capacity());
            assertThrows(IllegalArgumentException.class, () -> w.reserve(t, 1_001));
        }
    }

    @Test
    void refusesWhatIsNotAPermutationAndWorldsThatCannotGiveTheNextIds() {
        try (World w = World.builder().workers(1).maxAgents(4).build()) {
            SoaTable t = w.createTable("t");
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> w.spawnInOrder(t, new int[] {0, 1, 1}, 3, SpawnInitializer.NONE, 0L));
            assertTrue(twice.getMessage().contains("entry 2 is 1, given twice"), twice.getMessage());
            IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                    () -> w.spawnInOrder(t, new int[] {0, 3}, 2, SpawnInitializer.NONE, 0L));
            assertTrue(range.getMessage().contains("not a permutation of 0..1: entry 1 is 3"), range.getMessage());
            assertThrows(IllegalArgumentException.class, () -> w.spawnInOrder(t, new int[] {0}, 2, SpawnInitializer.NONE, 0L));
            IllegalArgumentException full = assertThrows(IllegalArgumentException.class,
                    () -> w.spawnInOrder(t, new int[] {0, 1, 2, 3, 4}, 5, SpawnInitializer.NONE, 0L));
            assertTrue(full.getMessage().contains("maxAgents = 4"), full.getMessage());
            assertEquals(0, t.size(), "nothing spawned by a refused call");
            w.commands().spawn(t, SpawnInitializer.NONE, 0L);
            w.sync();
            w.commands().despawn(t.agentAt(0));
            w.sync();
            IllegalStateException free = assertThrows(IllegalStateException.class,
                    () -> w.spawnInOrder(t, new int[] {0}, 1, SpawnInitializer.NONE, 0L));
            assertTrue(free.getMessage().contains("1 free ids to reuse"), free.getMessage());
        }
        try (World sparse = World.builder().workers(1).maxAgents(4).sparseIds(true).build()) {
            SoaTable t = sparse.createTable("t");
            assertThrows(IllegalStateException.class, () -> sparse.spawnInOrder(t, new int[] {0}, 1, SpawnInitializer.NONE, 0L));
        }
    }
}
