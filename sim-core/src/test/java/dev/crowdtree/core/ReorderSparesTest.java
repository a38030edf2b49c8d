package dev.crowdtree.core;

import dev.crowdtree.core.metrics.AllocationWindows;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.LongColumn;
import dev.crowdtree.core.storage.ObjectColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Reorders share one spare array per element type (SoaTable.reorder): several columns of one type,
 * gathered in parallel row chunks (World.reorder, more rows than one chunk), keep their own values,
 * never share an array, and rows added after a reorder start zeroed in every column although the
 * spares travel between columns.
 */
class ReorderSparesTest {
    private static final int ROWS = 150_000; // more than one chunk of World.reorder's gather

    @Test
    void columnsOfOneTypeKeepTheirValuesAndRowsAddedLaterAreZero() {
        for (int workers : new int[] {1, 3}) {
            try (World world = World.builder().workers(workers).initialCapacity(0).maxAgents(ROWS * 2).build()) {
                SoaTable t = world.createTable("t");
                FloatColumn[] f = {t.addFloat("f0"), t.addFloat("f1"), t.addFloat("f2")};
                IntColumn[] in = {t.addInt("i0"), t.addInt("i1")};
                LongColumn l = t.addLong("l");
                ByteColumn b = t.addByte("b");
                ObjectColumn<String> o = t.addObject("o");
                SpawnInitializer stamp = (table, row, id, arg) -> {
                    for (int c = 0; c < f.length; c++) {
                        f[c].set(row, id * 10f + c);
                    }
                    for (int c = 0; c < in.length; c++) {
                        in[c].set(row, id * 10 + c + 5);
                    }
                    l.set(row, id * 100L + 7);
                    b.set(row, (byte) (id % 100 + 1));
                    o.set(row, "a" + id);
                };
                for (int k = 0; k < ROWS; k++) {
                    world.commands().spawn(t, stamp, 0L);
                }
                world.sync();
                SplittableRandom rnd = new SplittableRandom(5);
                for (int round = 0; round < 3; round++) {
                    int[] order = Permutations.random(t.size(), rnd);
                    int[] before = java.util.Arrays.copyOf(t.agentIds().data(), t.size());
                    world.reorder(t, order);
                    Map<Object, Column> arrays = new IdentityHashMap<>();
                    for (Column c : t.columns()) {
                        assertNull(arrays.put(c.array(), c), "two columns share one array");
                    }
                    for (int r = 0; r < t.size(); r++) {
                        int id = t.agentAt(r);
                        assertEquals(before[order[r]], id);
                        for (int c = 0; c < f.length; c++) {
                            assertEquals(id * 10f + c, f[c].get(r));
                        }
                        for (int c = 0; c < in.length; c++) {
                            assertEquals(id * 10 + c + 5, in[c].get(r));
                        }
                        assertEquals(id * 100L + 7, l.get(r));
                        assertEquals((byte) (id % 100 + 1), b.get(r));
                        assertEquals("a" + id, o.get(r));
                    }
                    // remove some rows (their old data stays past the end), then add rows unstamped
                    for (int k = 0; k < 1000; k++) {
                        world.commands().despawn(t.agentAt(rnd.nextInt(t.size())));
                    }
                    world.sync();
                    int first = t.size();
                    for (int k = 0; k < 1500; k++) {
                        world.commands().spawn(t, SpawnInitializer.NONE, 0L);
                    }
                    world.sync();
                    for (int r = first; r < t.size(); r++) {
                        for (FloatColumn c : f) {
                            assertEquals(0f, c.get(r), "new row " + r);
                        }
                        for (IntColumn c : in) {
                            assertEquals(0, c.get(r), "new row " + r);
                        }
                        assertEquals(0L, l.get(r));
                        assertEquals(0, b.get(r));
                        assertNull(o.get(r));
                    }
                    for (int r = first; r < t.size(); r++) {
                        stamp.initialize(t, r, t.agentAt(r), 0L);
                    }
                }
                assertSame(t.columns().get(1), f[0]);
            }
        }
    }

    @Test
    void reordersAfterTheFirstAllocateNothing() {
        assumeTrue(AllocationWindows.supported(), "JVM cannot measure per-thread allocation");
        try (World world = World.builder().workers(2).initialCapacity(0).maxAgents(ROWS).build()) {
            SoaTable t = world.createTable("t");
            t.addFloat("f0");
            t.addFloat("f1");
            t.addInt("i");
            t.addLong("l");
            t.addByte("b");
            for (int k = 0; k < ROWS; k++) {
                world.commands().spawn(t, SpawnInitializer.NONE, 0L);
            }
            world.sync();
            int[] order = new int[t.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = order.length - 1 - i;
            }
            world.reorder(t, order); // the first one allocates the spares
            String dirty = AllocationWindows.findClean(world.executor().workerThreadIds(), 4, 20,
                    i -> world.reorder(t, order));
            assertEquals("", dirty, "no window of 20 reorders without allocation");
        }
    }

    @Test
    void scratchRowsMarkedWrittenAreClearedWhenTheyBecomeLive() {
        SoaTable t = new SoaTable("t", 16, 64);
        FloatColumn f = t.addFloat("f");
        t.add(0);
        t.ensureCapacity(8);
        f.data()[3] = 42f; // a host's scratch row past the live rows (a region's halo)
        t.markRowsWritten(4);
        t.add(1);
        t.add(2);
        t.add(3);
        assertEquals(0f, f.get(3));
    }
}
