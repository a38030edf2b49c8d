package dev.crowdtree.core;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.LongColumn;
import dev.crowdtree.core.storage.ShortColumn;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.ObjectColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.AgentHandle;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long random sequences of spawns and despawns, checked after every sync against a plain model:
 * the set of live agents, each agent's handle and row agree both ways, and every column of an
 * agent's row still holds the values stamped for that agent (no agent sees another's data).
 */
class StorageModelTest {

    /** The value every column of an agent's row is stamped with: a function of its incarnation. */
    static long stamp(int id, int generation) {
        return id * 1_000_003L + generation * 7L + 11;
    }

    @Test
    void handlesRowsAndValuesStayConsistentUnderRandomCreateDestroy() {
        for (long seed = 1; seed <= 6; seed++) {
            runSequence(seed, 4000);
        }
    }

    @Test
    void reorderMovesEveryColumnAndHandleTogether() {
        for (int workers : new int[] {1, 3}) {
            SplittableRandom rnd = new SplittableRandom(77);
            try (World world = World.builder().workers(workers).initialCapacity(0).maxAgents(10_000).build()) {
                SoaTable a = world.createTable("a");
                Stamped sa = new Stamped(world, a);
                Map<Integer, Object[]> model = new HashMap<>();
                for (int round = 0; round < 30; round++) {
                    for (int k = 0; k < 200; k++) {
                        world.commands().spawn(a, sa, 0L);
                    }
                    for (int k = 0; k < 50 && a.size() > 0; k++) {
                        world.commands().despawn(a.agentAt(rnd.nextInt(a.size())));
                    }
                    world.sync();
                    model.clear();
                    for (int row = 0; row < a.size(); row++) {
                        int id = a.agentAt(row);
                        model.put(id, new Object[] {a, world.agent(id).generation()});
                    }
                    // a random permutation of the live rows
                    int[] order = Permutations.random(a.size(), rnd);
                    int[] idsBefore = java.util.Arrays.copyOf(a.agentIds().data(), a.size());
                    world.reorder(a, order);
                    for (int i = 0; i < order.length; i++) {
                        assertEquals(idsBefore[order[i]], a.agentAt(i), "row " + i + " takes old row " + order[i]);
                    }
                    check(world, model, a);
                    sa.drain();
                }
            }
        }
    }

    private void runSequence(long seed, int steps) {
        SplittableRandom rnd = new SplittableRandom(seed);
        try (World world = World.builder().workers(1).initialCapacity(0).maxAgents(10_000).build()) {
            SoaTable a = world.createTable("a");
            SoaTable b = world.createTable("b");
            Stamped sa = new Stamped(world, a);
            Stamped sb = new Stamped(world, b);
            // The model: live agent id -> (table, generation).
            Map<Integer, Object[]> model = new HashMap<>();
            List<Integer> live = new ArrayList<>();
            for (int step = 0; step < steps; step++) {
                int ops = 1 + rnd.nextInt(20);
                List<Integer> despawned = new ArrayList<>();
                for (int k = 0; k < ops; k++) {
                    boolean grow = live.isEmpty() || rnd.nextInt(100) < (step % 500 < 250 ? 60 : 40);
                    if (grow) {
                        Stamped target = rnd.nextBoolean() ? sa : sb;
                        world.commands().spawn(target.table, target, 0L);
                    } else {
                        int victim = live.get(rnd.nextInt(live.size()));
                        world.commands().despawn(victim);
                        if (rnd.nextInt(10) == 0) {
                            world.commands().despawn(victim); // duplicate: must be skipped
                        }
                        despawned.add(victim);
                    }
                }
                world.sync();
                for (Integer d : despawned) {
                    if (model.remove(d) != null) {
                        live.remove(d);
                    }
                }
                for (Stamped s : new Stamped[] {sa, sb}) {
                    for (int[] spawned : s.drain()) {
                        int id = spawned[0];
                        assertNull(model.get(id), "id " + id + " reused while alive");
                        model.put(id, new Object[] {s.table, spawned[1]});
                        live.add(id);
                    }
                }
                check(world, model, a, b);
            }
        }
    }

    private static void check(World world, Map<Integer, Object[]> model, SoaTable... tables) {
        assertEquals(model.size(), world.agentCount());
        int rows = 0;
        for (SoaTable t : tables) {
            rows += t.size();
            for (int row = 0; row < t.size(); row++) {
                int id = t.agentAt(row);
                AgentHandle h = world.agent(id);
                assertNotNull(h, "row " + row + " of " + t.name() + " names dead agent " + id);
                assertEquals(row, world.rowOf(id));
                assertEquals(row, h.row());
                assertSame(t, h.table());
                Object[] m = model.get(id);
                assertNotNull(m, "agent " + id + " not in model");
                assertSame(t, m[0]);
                assertEquals((int) m[1], h.generation());
                assertEquals(h, world.entity(h.id()).get(AgentHandle.class));
                long v = stamp(id, h.generation());
                assertEquals((float) v, ((FloatColumn) t.column("f")).get(row));
                assertEquals((int) v, ((IntColumn) t.column("i")).get(row));
                assertEquals(v, ((LongColumn) t.column("l")).get(row));
                assertEquals((short) v, ((ShortColumn) t.column("s")).get(row));
                assertEquals((byte) v, ((ByteColumn) t.column("b")).get(row));
                assertEquals(Long.valueOf(v), ((ObjectColumn<?>) t.column("o")).get(row));
            }
        }
        assertEquals(model.size(), rows);
        for (Map.Entry<Integer, Object[]> e : model.entrySet()) {
            AgentHandle h = world.agent(e.getKey());
            assertNotNull(h);
            assertTrue(h.row() >= 0 && h.row() < h.table().size());
            assertEquals(e.getKey().intValue(), h.table().agentAt(h.row()));
        }
    }

    /** Stamps each spawned row with its agent's values and remembers what it spawned. */
    static final class Stamped implements SpawnInitializer {
        final SoaTable table;
        final FloatColumn f;
        final IntColumn i;
        final LongColumn l;
        final ShortColumn s;
        final ByteColumn b;
        final ObjectColumn<Long> o;
        private final List<int[]> spawned = new ArrayList<>();

        final World world;

        Stamped(World world, SoaTable table) {
            this.world = world;
            this.table = table;
            f = table.addFloat("f");
            i = table.addInt("i");
            l = table.addLong("l");
            s = table.addShort("s");
            b = table.addByte("b");
            o = table.addObject("o");
        }

        @Override
        public void initialize(SoaTable t, int row, int agentId, long arg) {
            int generation = world.generationOf(agentId);
            long v = stamp(agentId, generation);
            f.set(row, v);
            i.set(row, (int) v);
            l.set(row, v);
            s.set(row, (short) v);
            b.set(row, (byte) v);
            o.set(row, v);
            spawned.add(new int[] {agentId, generation});
        }

        List<int[]> drain() {
            List<int[]> out = new ArrayList<>(spawned);
            spawned.clear();
            return out;
        }
    }

    @Test
    void anAddedRowIsZeroAfterRemovalsAndRestoresLeftDataBehind() throws Exception {
        SoaTable t = new SoaTable("t", 4, 1 << 20);
        FloatColumn f = t.addFloat("f");
        ObjectColumn<String> o = t.addObject("o");
        for (int a = 0; a < 10; a++) {
            int r = t.add(a);
            f.data()[r] = a + 1;
            o.set(r, "x" + a);
        }
        t.remove(3); // the last row moves into 3; its old place keeps its data until reused
        t.remove(0);
        int r = t.add(100);
        assertEquals(0f, f.data()[r], "a reused row is cleared");
        assertNull(o.get(r));
        r = t.add(101);
        assertEquals(0f, f.data()[r]);
        assertNull(o.get(r));
        // a snapshot of fewer rows restored over more: the rows above it are cleared when added again
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        SoaTable small = new SoaTable("t", 4, 1 << 20);
        small.addFloat("f");
        small.addObject("o");
        small.add(7);
        dev.crowdtree.core.storage.TableSnapshot.write(small, new java.io.DataOutputStream(bytes));
        dev.crowdtree.core.storage.TableSnapshot.read(new java.io.DataInputStream(
                new java.io.ByteArrayInputStream(bytes.toByteArray()))).applyTo(t);
        assertEquals(1, t.size());
        r = t.add(102);
        assertEquals(0f, f.data()[r], "a row a restore left data in is cleared");
        // rows never written are zero without clearing
        for (int a = 0; a < 1000; a++) {
            r = t.add(200 + a);
            assertEquals(0f, f.data()[r]);
            assertNull(o.get(r));
        }
    }
}
