package dev.crowdtree.core;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.core.world.WorldSnapshot;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A world with sparse ids ({@code World.Builder.sparseIds}): a region placing agents from a large id
 * space holds an id index the size of its agents, and answers as a dense world does.
 */
class SparseIdsTest {

    private static World world(boolean sparse) {
        return World.builder().workers(2).maxAgents(1 << 16).sparseIds(sparse).build();
    }

    private static byte[] snapshot(World w, SoaTable t) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        WorldSnapshot.write(w, t, new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    private static WorldSnapshot read(byte[] b) throws IOException {
        return WorldSnapshot.read(new DataInputStream(new ByteArrayInputStream(b)));
    }

    @Test
    void aSparseWorldAnswersAsADenseOneOverRandomPlacementsEmigrationsReordersAndRestores() throws Exception {
        Random rnd = new Random(7);
        try (World dense = world(false); World sparse = world(true)) {
            SoaTable dt = dense.createTable("agents");
            SoaTable st = sparse.createTable("agents");
            List<Integer> live = new ArrayList<>();
            Set<Integer> seen = new LinkedHashSet<>();
            for (int step = 0; step < 6_000; step++) {
                int op = rnd.nextInt(100);
                if (op < 60 || live.isEmpty()) {
                    int id = rnd.nextInt(1 << 20);
                    if (dense.isLive(id)) {
                        continue;
                    }
                    int gen = rnd.nextInt(4);
                    assertEquals(dense.place(dt, id, gen, SpawnInitializer.NONE, 0),
                            sparse.place(st, id, gen, SpawnInitializer.NONE, 0));
                    live.add(id);
                    seen.add(id);
                } else if (op < 95) {
                    int id = live.remove(rnd.nextInt(live.size()));
                    dense.emigrate(id);
                    sparse.emigrate(id);
                } else if (op < 98) {
                    int[] order = Permutations.random(dt.size(), rnd);
                    dense.reorder(dt, order);
                    sparse.reorder(st, order.clone());
                } else {
                    read(snapshot(dense, dt)).applyTo(dense, dt);
                    WorldSnapshot s = read(snapshot(sparse, st));
                    s.checkFits(sparse, st);
                    s.applyTo(sparse, st);
                }
                if (step % 500 == 0 || step == 5_999) {
                    for (int id : seen) {
                        assertEquals(dense.isLive(id), sparse.isLive(id), "id " + id + " at step " + step);
                        assertEquals(dense.rowOf(id), sparse.rowOf(id), "row of id " + id + " at step " + step);
                        assertEquals(dense.tableOf(id) == null, sparse.tableOf(id) == null);
                        if (dense.isLive(id)) {
                            assertEquals(dense.generationOf(id), sparse.generationOf(id), "generation of id " + id);
                            assertSame(st, sparse.tableOf(id));
                        } else {
                            assertEquals(0, sparse.generationOf(id), "a sparse world forgets the generation of an id that left");
                        }
                    }
                    assertEquals(dense.agentCount(), sparse.agentCount());
                    for (int r = 0; r < st.size(); r++) {
                        assertEquals(r, sparse.rowOf(st.agentAt(r)), "row " + r);
                    }
                }
            }
            assertTrue(live.size() > 1_000, "the test kept agents: " + live.size());
            assertTrue(sparse.idIndexBytes() <= 64L * live.size() + 1024,
                    "sparse index: " + sparse.idIndexBytes() + " B for " + live.size() + " agents");
            assertTrue(dense.idIndexBytes() >= 10L * (1 << 19), "dense index: " + dense.idIndexBytes() + " B");
        }
    }

    @Test
    void aRegionOfAThousandAgentsWithIdsUpToAHundredMillionHoldsAndSnapshotsOnlyItsAgents() throws Exception {
        try (World w = world(true)) {
            SoaTable t = w.createTable("agents");
            Random rnd = new Random(3);
            Set<Integer> ids = new LinkedHashSet<>();
            while (ids.size() < 1_000) {
                ids.add(rnd.nextInt(100_000_000));
            }
            ids.add(99_999_999);
            for (int id : ids) {
                w.place(t, id, id % 5, SpawnInitializer.NONE, 0);
            }
            assertTrue(w.idIndexBytes() < 64 * 1024, w.idIndexBytes() + " B of id index");
            assertEquals(0, w.generationOf(12), "an id that never lived here");
            assertEquals(-1, w.rowOf(12));
            assertNull(w.tableOf(12));
            // -1 is the key of a free slot: a negative id must not find one
            assertFalse(w.isLive(-1));
            assertEquals(-1, w.rowOf(-1));
            assertNull(w.tableOf(-1));
            assertEquals(0, w.generationOf(-1));
            byte[] b = snapshot(w, t);
            assertTrue(b.length < 64 * 1024, "the snapshot's ids follow the agents, not the largest id: " + b.length + " B");
            int[] rows = new int[1];
            try (World again = world(true)) {
                SoaTable t2 = again.createTable("agents");
                WorldSnapshot s = read(b);
                s.checkFits(again, t2);
                s.applyTo(again, t2);
                for (int id : ids) {
                    assertEquals(w.rowOf(id), again.rowOf(id));
                    assertEquals(id % 5, again.generationOf(id));
                    rows[0]++;
                }
                assertEquals(ids.size(), again.agentCount());
                // the restored index keeps working: an agent leaves, another comes
                again.emigrate(99_999_999);
                assertFalse(again.isLive(99_999_999));
                int row = again.place(t2, 99_999_998, 2, SpawnInitializer.NONE, 0);
                assertEquals(row, again.rowOf(99_999_998));
            }
            assertEquals(ids.size(), rows[0]);
        }
    }

    @Test
    void aSparseWorldDoesNotSpawnAndSnapshotsDoNotCrossBetweenTheTwoKinds() throws Exception {
        try (World sparse = world(true); World dense = world(false)) {
            SoaTable st = sparse.createTable("agents");
            SoaTable dt = dense.createTable("agents");
            sparse.commands().spawn(st, SpawnInitializer.NONE, 0);
            IllegalStateException e = assertThrows(IllegalStateException.class, sparse::sync);
            assertTrue(e.getMessage().contains("does not spawn"), e.getMessage());

            sparse.place(st, 40_000, 1, SpawnInitializer.NONE, 0);
            dense.place(dt, 40_000, 1, SpawnInitializer.NONE, 0);
            // a dense index holds ids below 2^29 (16 B each); beyond, the message names the sparse kind
            IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
                    () -> dense.place(dt, 1 << 29, 0, SpawnInitializer.NONE, 0));
            assertTrue(beyond.getMessage().startsWith("agent id 536,870,912 is beyond the 536,870,912 ids a dense id index holds"),
                    beyond.getMessage());
            assertTrue(beyond.getMessage().endsWith("takes World.Builder.sparseIds(true)"), beyond.getMessage());
            assertEquals(1, dense.agentCount(), "nothing was placed");
            SnapshotException intoDense = assertThrows(SnapshotException.class,
                    () -> read(snapshot(sparse, st)).checkFits(dense, dt));
            assertTrue(intoDense.getMessage().startsWith("the snapshot's agent ids are sparse (a region's) and this world's are dense"),
                    intoDense.getMessage());
            SnapshotException intoSparse = assertThrows(SnapshotException.class,
                    () -> read(snapshot(dense, dt)).checkFits(sparse, st));
            assertTrue(intoSparse.getMessage().startsWith("the snapshot's agent ids are dense and this world's are sparse"),
                    intoSparse.getMessage());
        }
    }
}
