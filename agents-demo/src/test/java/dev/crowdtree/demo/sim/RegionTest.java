package dev.crowdtree.demo.sim;

import dev.crowdtree.core.world.World;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Regions without a cluster: the region code path against the whole-world crowd, conservation of
 * agents across migrations, and a restore from checkpoints in the middle of a run.
 */
class RegionTest {
    /** 6,000 agents in 400 m x 400 m (the default density of 150,000): shouts, claims and crossings happen. */
    private static final CrowdConfig CONFIG = new CrowdConfig(6000, 7, 1, 1f / 30f, 400f, 6, 3, 80, 4, 4f);

    /** Regions stepped in one thread, exchanging outboxes directly. */
    static final class LocalRun implements AutoCloseable {
        /** Makes region {@code r}'s simulation, fresh. */
        interface Sims {
            RegionalSim make(int r) throws Exception;
        }

        final Partition grid;
        final Sims sims;
        Region[] regions;
        long tick;
        long migrants;
        long haloBytes;
        long eventBytes;

        LocalRun(int count) throws Exception {
            this(count, CONFIG);
        }

        LocalRun(int count, CrowdConfig config) throws Exception {
            this(new RegionGrid(count, config.worldSize(), config.cellSize()), null, config);
        }

        /** Regions of {@code grid} made by {@code sims} (null: the crowd of {@code config}). */
        LocalRun(Partition grid, Sims sims, CrowdConfig config) throws Exception {
            this.grid = grid;
            this.sims = sims != null ? sims : r -> new CrowdSim(CrowdSetup.of(config)
                    .region("crowd", CrowdSim.embeddedTreeText(), (RegionGrid) grid, r));
            regions = new Region[grid.count()];
            for (int r = 0; r < regions.length; r++) {
                regions[r] = Region.create(this.sims.make(r), grid, r);
            }
        }

        void step() {
            tick++;
            byte[][][] inboxes = new byte[regions.length][][];
            for (Region r : regions) {
                inboxes[r.index()] = inboxOf(r);
            }
            for (Region r : regions) {
                r.step(tick, inboxes[r.index()]);
                migrants += r.migrantsOut();
                haloBytes += r.haloBytes();
                eventBytes += r.eventBytes();
            }
        }

        /** Region {@code r}'s inbox for its next step: its neighbours' outboxes to it. */
        byte[][] inboxOf(Region r) {
            int[] nb = r.neighbours();
            byte[][] in = new byte[nb.length][];
            for (int i = 0; i < nb.length; i++) {
                Region from = regions[nb[i]];
                in[i] = from.outbox(java.util.Arrays.binarySearch(from.neighbours(), r.index()));
            }
            return in;
        }

        void restoreAll() throws Exception {
            List<byte[]> saved = new ArrayList<>();
            for (Region r : regions) {
                saved.add(r.checkpoint());
                r.close();
            }
            for (int i = 0; i < regions.length; i++) {
                regions[i] = Region.restore(sims.make(i), grid, i, saved.get(i));
            }
        }

        /** Agents in the regions and on their way between them (left at the last step, placed at the next). */
        int agents() {
            int n = 0;
            for (Region r : regions) {
                n += r.agents();
            }
            return n;
        }

        long hash() {
            long a = 0;
            long o = 0;
            for (Region r : regions) {
                long[] p = r.hashParts();
                a += p[0];
                o += p[2];
            }
            return Region.worldHash(a, regions[0].hashParts()[1], o);
        }

        @Override
        public void close() {
            for (Region r : regions) {
                r.close();
            }
        }
    }

    @Test
    void oneRegionIsTheWholeWorldCrowd() throws Exception {
        try (LocalRun run = new LocalRun(1); CrowdSim whole = new CrowdSim(CrowdSetup.of(CONFIG))) {
            for (int t = 0; t < 120; t++) {
                run.step();
                whole.tick();
            }
            assertEquals(whole.world().contentHashByAgent(), run.regions[0].hashParts()[0],
                    "one region runs exactly the crowd of the whole world");
        }
    }

    /**
     * A dense world (more agents than cells: the whole-world crowd computes the cells' panic in the
     * grid phase, a region sorts only its window of cells and leaves it to the perception): one region
     * gives the crowd's world, and two regions denser than their grids have cells run.
     */
    @Test
    void onADenseGridRegionsRunTheWholeWorldCrowd() throws Exception {
        CrowdConfig dense = new CrowdConfig(24_000, 7, 1, 1f / 30f, 400f, 6, 3, 80, 4, 4f); // 10,000 cells
        try (LocalRun one = new LocalRun(1, dense); LocalRun two = new LocalRun(2, dense);
             CrowdSim whole = new CrowdSim(CrowdSetup.of(dense))) {
            for (int t = 0; t < 60; t++) {
                one.step();
                two.step();
                whole.tick();
            }
            assertTrue(whole.data().cellPanic() != null, "the whole-world crowd computed the cells' panic");
            assertEquals(whole.world().contentHashByAgent(), one.regions[0].hashParts()[0], "one region");
            assertEquals(dense.agents(), two.agents(), "two regions, each denser than its grid has cells, keep every agent");
        }
    }

    /** 6 regions (3 x 2): the borders at 133.3 m and 266.7 m cut grid cells, so cell mates span regions. */
    @Test
    void agentsMigrateAndAreNeverLostOrDuplicated() throws Exception {
        try (LocalRun run = new LocalRun(6)) {
            assertEquals(CONFIG.agents(), run.agents());
            for (int t = 0; t < 200; t++) {
                run.step();
                assertEquals(CONFIG.agents(), run.agents(), "agents at tick " + run.tick);
            }
            assertTrue(run.migrants > 0, "agents crossed region borders");
            assertTrue(run.haloBytes > 0, "regions saw their neighbours' agents");
            assertTrue(run.eventBytes > 0, "events or releases crossed region borders");
            long dropped = 0;
            for (Region r : run.regions) {
                dropped += r.droppedEvents();
            }
            assertEquals(0, dropped, "no event lost its agent");
            for (Region r : run.regions) {
                // a region's id index follows its own agents (sparse), not every id of the world (10 B each)
                World w = r.sim().world();
                assertTrue(w.sparseIds(), "region " + r.index());
                assertTrue(w.idIndexBytes() <= 64L * w.agentCount() + 1024,
                        "region " + r.index() + ": " + w.idIndexBytes() + " B of id index for " + w.agentCount() + " agents");
            }
        }
    }

    @Test
    void restoringEveryRegionFromItsCheckpointContinuesTheSameRun() throws Exception {
        long undisturbed;
        try (LocalRun run = new LocalRun(8)) {
            for (int t = 0; t < 160; t++) {
                run.step();
            }
            undisturbed = run.hash();
        }
        try (LocalRun run = new LocalRun(8)) {
            for (int t = 0; t < 80; t++) {
                run.step();
            }
            run.restoreAll();
            for (int t = 0; t < 80; t++) {
                run.step();
            }
            assertEquals(undisturbed, run.hash());
        }
        try (LocalRun other = new LocalRun(8)) {
            for (int t = 0; t < 159; t++) {
                other.step();
            }
            assertNotEquals(undisturbed, other.hash(), "the hash sees one tick of difference");
        }
    }

    @Test
    void aMessageIsASnapshotContainerAndAChangedOrMisroutedOneIsRefusedNamingItsSender() throws Exception {
        try (LocalRun run = new LocalRun(4)) {
            run.step();
            Region r = run.regions[0];
            int[] nb = r.neighbours();
            byte[][] inbox = run.inboxOf(r);
            dev.crowdtree.core.storage.SnapshotReader m = dev.crowdtree.core.storage.SnapshotReader.parse(inbox[0]);
            m.requireKind(Region.MESSAGE_KIND);
            for (String section : new String[] {"route", "releases", "migrants", "events", "halo"}) {
                m.section(section); // every part is there
            }
            byte[][] changed = inbox.clone();
            changed[0] = inbox[0].clone();
            changed[0][changed[0].length / 2] ^= 1;
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> r.step(2, changed));
            assertTrue(e.getMessage().contains("message 0 (from region " + nb[0] + ")"), e.getMessage());
            byte[][] swapped = inbox.clone();
            if (nb.length > 1) {
                swapped[0] = inbox[1];
                swapped[1] = inbox[0];
                e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> r.step(2, swapped));
                assertTrue(e.getMessage().contains("it is not from region " + nb[0] + " for tick 2"), e.getMessage());
            }
            r.step(2, inbox); // the unchanged inbox still steps
        }
    }

    /**
     * A neighbour's message for an earlier tick (the exchange reuses its key every other tick) is
     * told apart from a wrong one: the step fails before reading anything, naming the message and
     * its tick, and steps once the right message is given.
     */
    @Test
    void aMessageOfAnEarlierTickIsStaleAndTheStepCanBeRetried() throws Exception {
        try (LocalRun run = new LocalRun(4)) {
            run.step();
            Region r = run.regions[0];
            byte[][] old = run.inboxOf(r);
            run.step();
            byte[][] fresh = run.inboxOf(r);
            byte[][] mixed = fresh.clone();
            mixed[fresh.length - 1] = old[fresh.length - 1];
            Region.StaleMessage stale = org.junit.jupiter.api.Assertions.assertThrows(Region.StaleMessage.class,
                    () -> r.step(3, mixed));
            assertEquals(fresh.length - 1, stale.message);
            assertEquals(2, stale.sentFor);
            assertEquals(2, r.tick(), "nothing was stepped");
            r.step(3, fresh);
            assertEquals(3, r.tick());
        }
    }

    @Test
    void theRegionGridIsTheMostSquareSplitWithItsNeighbours() {
        RegionGrid g = new RegionGrid(8, 2000f, 4f);
        assertEquals(4, g.columns);
        assertEquals(2, g.rows);
        assertEquals(0, g.regionOf(0f, 0f));
        assertEquals(7, g.regionOf(2000f, 2000f), "the far edge belongs to the last region");
        assertEquals(5, g.regionOf(500f, 1000f), "a border belongs to the region after it");
        assertEquals(java.util.List.of(0, 2, 4, 5, 6), java.util.Arrays.stream(g.neighbours(1)).boxed().toList());
        assertEquals(java.util.List.of(1, 4, 5), java.util.Arrays.stream(g.neighbours(0)).boxed().toList());
        assertEquals(1, new RegionGrid(7, 2000f, 4f).rows, "a prime count is one row");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new RegionGrid(4096, 100f, 4f));
        assertTrue(e.getMessage().contains("must be at least twice the halo (8.0) wide"), e.getMessage());
    }
}
