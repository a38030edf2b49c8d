package dev.crowdtree.demo.sim;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static dev.crowdtree.demo.sim.SnapshotBytes.reseal;
import static dev.crowdtree.demo.sim.SnapshotBytes.resealAll;
import static dev.crowdtree.demo.sim.SnapshotBytes.section;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 23, defect 5: a crowd snapshot with a valid checksum but impossible contents was accepted (a
 * configuration of 16,000,000 agents over a 2,000-agent table built a 16M crowd first; a state index
 * past the tree's end failed with an ArrayIndexOutOfBoundsException; a NaN threat and 0x7fffffff used
 * slots were taken). The contents are now checked for meaning, and a fuzzer mutates valid snapshots,
 * recomputing their checksums: every case is refused with one line or restored to a crowd that runs.
 */
class SnapshotMeaningTest {
    private static byte[] good;
    private static final int AGENTS = 200;

    @TempDir
    static Path dir;

    @BeforeAll
    static void save() throws Exception {
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(CrowdConfig.defaults().withAgents(AGENTS).withSeed(4)))) {
            for (int i = 0; i < 40; i++) {
                sim.tick();
            }
            good = CrowdSnapshot.save(sim);
        }
    }

    // ---- the container's sections and checksums: SnapshotBytes ----

    private static String refusal(byte[] bytes) throws Exception {
        Path f = Files.write(dir.resolve("case.snap"), bytes);
        try (CrowdSim sim = CrowdSnapshot.load(f, 1, DemoNodes.registry())) {
            fail("loaded: " + sim.tickNumber());
            return null;
        } catch (IOException | StateTreeCompileException e) {
            return e.getMessage();
        }
    }

    @Test
    void aConfigurationOfMoreAgentsThanTheTableHoldsIsRefusedBeforeTheCrowdIsBuilt() throws Exception {
        byte[] b = good.clone();
        int[] cfg = section(b, 0, b.length, "config");
        ByteBuffer.wrap(b).putInt(cfg[0], 16_000_000);
        reseal(b, 0, b.length);
        assertEquals("the snapshot's configuration has 16000000 agents, its system section " + AGENTS, refusal(b));
    }

    @Test
    void aStateTheTreeDoesNotHaveIsRefusedNamingRowAndColumn() throws Exception {
        byte[] b = good.clone();
        int at = SnapshotBytes.column(b, "st.Crowd.exec");
        ByteBuffer.wrap(b).putShort(at + 6, (short) 224); // row 0, low 16 bits (big-endian): state 223
        resealAll(b);
        String e = refusal(b);
        assertTrue(e.startsWith("the snapshot's column 'st.Crowd.exec' at row 0 names state 223; tree 'Crowd' has "), e);
    }

    @Test
    void aNanThreatAndImpossibleUsedSlotsAreRefused() throws Exception {
        byte[] b = good.clone();
        int[] crowd = section(b, 0, b.length, "crowd");
        int threats = crowd[0] + 6 * 8 + 4;
        ByteBuffer.wrap(b).putFloat(threats, Float.NaN);
        reseal(b, 0, b.length);
        assertTrue(refusal(b).startsWith("the snapshot's threat 0 is at (NaN, "), refusal(b));
        b = good.clone();
        DataInputStream d = new DataInputStream(new ByteArrayInputStream(b, crowd[0], crowd[1]));
        d.skipNBytes(6 * 8);
        int n = d.readInt();
        int objects = crowd[0] + 6 * 8 + 4 + n * 17 + 4;
        ByteBuffer.wrap(b).putInt(objects, 0x7fffffff);
        reseal(b, 0, b.length);
        assertTrue(refusal(b).startsWith("the snapshot's smart object 0 has 2147483647 slots in use; it has "), refusal(b));
        b = good.clone();
        int x = SnapshotBytes.column(b, "x");
        ByteBuffer.wrap(b).putFloat(x + 4 * 7, Float.POSITIVE_INFINITY);
        resealAll(b);
        assertEquals("the snapshot's column 'x' at row 7 is Infinity; the crowd's positions and velocities are finite",
                refusal(b));
    }

    /**
     * Issue 34, defect 3: a huge step count and a slightly changed timer dt, checksums recomputed, made
     * the first tick's timer rebase cost about 34 ms per agent; a timer dt of +Infinity loaded and then
     * failed inside the tick. A crowd's snapshot has one tick and one dt: the crowd's tick, the clock's,
     * the runtime's and its steps run; the configuration's dt and the timers'.
     */
    @Test
    void stepsAndATimerDtThatDisagreeWithTheCrowdAreRefusedBeforeAnythingRuns() throws Exception {
        int[] rt = SnapshotBytes.runtime(good);
        byte[] b = good.clone();
        ByteBuffer.wrap(b).putInt(rt[0], 2_000_000_000);
        resealAll(b);
        assertEquals("the snapshot's ticks disagree: its crowd section (and configuration) says tick 40, its system "
                + "section's clock 40, the runtime's last tick 40 and steps run 2000000000; a saved simulation's are one "
                + "number", refusal(b));
        float dt = ByteBuffer.wrap(good).getFloat(rt[0] + 4);
        for (float bad : new float[] {Math.nextUp(dt), Float.POSITIVE_INFINITY, Float.NaN, -dt}) {
            b = good.clone();
            ByteBuffer.wrap(b).putFloat(rt[0] + 4, bad);
            resealAll(b);
            assertEquals("the snapshot's runtime derived its timers with dt " + bad + " s, its crowd section (and "
                    + "configuration) gives dt " + dt + " s; a simulation ticks with one dt, so they are the same number",
                    refusal(b));
        }
        // the configuration's dt: CrowdConfig's own check
        int[] cfg = section(good, 0, good.length, "config");
        b = good.clone();
        ByteBuffer.wrap(b).putFloat(cfg[0] + 12, Float.POSITIVE_INFINITY);
        reseal(b, 0, b.length);
        assertEquals("the snapshot is malformed: dt = Infinity is not valid; it must be a finite number greater than 0",
                refusal(b));
    }

    /**
     * The runtime alone (a host may tick it with another dt) takes a step count and a dt the crowd would
     * refuse, and a timer far past its due step: the rebase of the first tick then costs a few operations
     * per timer, not one per step between the due step and the step count (200 agents: about 7 s).
     */
    @Test
    void aRuntimeRestoredWithAHugeStepCountRebasesItsTimersInTimeBoundedByItsAgents() throws Exception {
        int[] sys = section(good, 0, good.length, "system");
        int[] rt = SnapshotBytes.runtime(good);
        byte[] b = good.clone();
        float dt = ByteBuffer.wrap(b).getFloat(rt[0] + 4);
        ByteBuffer.wrap(b).putInt(rt[0], 2_000_000_000).putFloat(rt[0] + 4, Math.nextUp(dt));
        reseal(b, sys[0], sys[1]);
        byte[] system = java.util.Arrays.copyOfRange(b, sys[0], sys[0] + sys[1]);
        try (CrowdSim sim = CrowdSnapshot.load(Files.write(dir.resolve("timers.snap"), good), 1, DemoNodes.registry())) {
            sim.system().restore(new ByteArrayInputStream(system));
            long t0 = System.nanoTime();
            sim.system().tickAll(sim.tickNumber() + 1, dt);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 1000, "the first tick after the restore took " + ms + " ms");
        }
    }

    @Test
    void aRecordedTreeOutsideTheSnapshotsDirectoryIsNotRead(@TempDir Path other) throws Exception {
        Path tree = Files.writeString(other.resolve("crowd.json"), CrowdSim.embeddedTreeText());
        Path f = dir.resolve("with-tree.snap");
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(CrowdConfig.defaults().withAgents(100).withSeed(2)).tree(tree))) {
            sim.tick();
            CrowdSnapshot.save(sim, f);
        }
        SnapshotException e = assertThrows(SnapshotException.class, () -> CrowdSnapshot.load(f, 1, DemoNodes.registry()));
        assertEquals("it was saved with the tree asset " + tree.toAbsolutePath() + ", which is outside the snapshot's "
                + "directory and so is not read; name it with --tree FILE", e.getMessage());
        try (CrowdSim sim = CrowdSnapshot.load(f, 1, DemoNodes.registry(), tree)) {
            assertEquals(1, sim.tickNumber());
        }
        Path inside = Files.copy(f, other.resolve("next-to-its-tree.snap"));
        try (CrowdSim sim = CrowdSnapshot.load(inside, 1, DemoNodes.registry())) {
            assertEquals(1, sim.tickNumber());
        }
        Files.delete(tree);
        e = assertThrows(SnapshotException.class, () -> CrowdSnapshot.load(inside, 1, DemoNodes.registry()));
        assertEquals("it was saved with the tree asset " + tree.toAbsolutePath() + ", which does not exist; name the "
                + "tree with --tree FILE", e.getMessage());
    }

    @Test
    void mutatedSnapshotsWithValidChecksumsAreRefusedWithOneLineOrRun() throws Exception {
        int[] sys = section(good, 0, good.length, "system");
        int exec = SnapshotBytes.column(good, "st.Crowd.exec");
        SplittableRandom rng = new SplittableRandom(23);
        int refused = 0;
        int ran = 0;
        for (int c = 0; c < 1000; c++) {
            byte[] b = good.clone();
            int flips = 1 + rng.nextInt(4);
            for (int i = 0; i < flips; i++) {
                // a third in the execution words, the rest anywhere after the outer header
                int at = rng.nextInt(3) == 0 ? exec + rng.nextInt(AGENTS * 8) : 20 + rng.nextInt(b.length - 24);
                b[at] = (byte) (rng.nextInt(3) == 0 ? b[at] ^ (1 << rng.nextInt(8)) : rng.nextInt(256));
            }
            int[] now;
            try {
                now = section(b, 0, b.length, "system");
            } catch (IOException | AssertionError e) {
                now = null; // the mutation broke the section list: the loader must say so
            }
            if (now != null && now[0] == sys[0] && now[1] == sys[1]) {
                reseal(b, sys[0], sys[1]);
            }
            reseal(b, 0, b.length);
            Path f = Files.write(dir.resolve("fuzz.snap"), b);
            CrowdSim sim;
            try {
                sim = CrowdSnapshot.load(f, 1, DemoNodes.registry());
            } catch (IOException | StateTreeCompileException e) {
                String m = e.getMessage();
                assertTrue(m != null && !m.isBlank() && !m.contains("\n"), "case " + c + ": " + m);
                refused++;
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError("case " + c + " failed with " + e, e);
            }
            try (sim) {
                for (int t = 0; t < 3; t++) {
                    sim.tick();
                }
            } catch (RuntimeException e) {
                throw new AssertionError("case " + c + " loaded and then failed with " + e, e);
            }
            ran++;
        }
        assertEquals(1000, refused + ran);
        assertTrue(refused > 0 && ran > 0, refused + " refused, " + ran + " ran");
        System.out.println("snapshot fuzzer: " + refused + " refused with one line, " + ran + " restored and ran 3 ticks");
        assertFalse(new String(good, StandardCharsets.ISO_8859_1).isEmpty());
    }
}
