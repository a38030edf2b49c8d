package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.debug.SimReplay;
import dev.crowdtree.demo.model.Models;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.CrowdSetup;
import dev.crowdtree.demo.sim.CrowdSim;
import dev.crowdtree.demo.testing.NodeJars;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.record.RecordingException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run --record} (docs/RECORDING.md) and {@link SimReplay}: a recorded crowd run replays to
 * its world hash on another worker count, {@code openAt} gives the world of an unbroken run at that
 * tick, the counters read back are those of the run; bad options are refused with one line.
 */
class RecordCliTest extends CliTestBase {
    private static final long MAX = 1L << 30;

    private int run(String... args) {
        out.reset();
        err.reset();
        return Main.execute(args);
    }

    private long hash() {
        String line = out().lines().filter(l -> l.startsWith("world hash: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no world hash in:\n" + out()));
        return Long.parseUnsignedLong(line.substring("world hash: ".length()), 16);
    }

    @Test
    void aRecordedRunReplaysToItsWorldHashOnAnotherWorkerCount() throws Exception {
        Path f = dir.resolve("crowd.rec");
        assertEquals(0, run("run", "--agents", "2000", "--ticks", "120", "--seed", "5", "--workers", "2", "--quiet",
                "--record", f.toString(), "--record-every", "25"), err());
        long recorded = hash();
        String line = out().lines().filter(l -> l.startsWith("recorded: ")).findFirst().orElseThrow();
        assertTrue(line.matches("recorded: " + java.util.regex.Pattern.quote(f.toString())
                + ", 120 ticks, [0-9,]+ bytes \\([0-9,]+ bytes per 1,000 ticks\\)"), line);
        assertEquals(Files.size(f), Long.parseLong(line.replaceAll(".*ticks, ([0-9,]+) bytes \\(.*", "$1")
                .replace(",", "")));
        // recording changes nothing in the run
        assertEquals(0, run("run", "--agents", "2000", "--ticks", "120", "--seed", "5", "--workers", "2", "--quiet"));
        assertEquals(recorded, hash());

        Recording rec = Recording.read(f, MAX);
        assertEquals("crowd", rec.header().kind());
        assertEquals(25, rec.header().snapshotEvery());
        assertTrue(rec.header().metadataJson().startsWith("{\"model\":\"crowd\",\"agents\":2000,\"seed\":5,\"dt\":"),
                rec.header().metadataJson());
        assertTrue(rec.header().metadataJson().contains("\"workers\":2,\"tree\":\"Crowd\""), rec.header().metadataJson());
        assertEquals(1, rec.firstTick());
        assertEquals(120, rec.lastTick());
        assertEquals(recorded, rec.finalHash());
        assertEquals(List.of(25L, 50L, 75L, 100L), rec.snapshotTicks());
        assertTrue(rec.hasCounters());

        AtomicLong seen = new AtomicLong();
        SimReplay.Result r = SimReplay.verify(rec, 1, Models.builtIn().byDefault(), t -> seen.incrementAndGet());
        assertTrue(r.matches(), r.describe());
        assertEquals(recorded, r.finalHash());
        assertEquals(120, seen.get());
        assertEquals(String.format("replayed 120 ticks to tick 120: world hash %016x, as recorded", recorded), r.describe());

        // openAt: the world an unbroken run has at that tick, from the snapshot before it or the start
        for (int tick : new int[] {0, 10, 60, 75, 120}) {
            long unbroken;
            if (tick == 0) {
                assertEquals(0, run("run", "--agents", "2000", "--ticks", "0", "--seed", "5", "--quiet"));
            } else {
                assertEquals(0, run("run", "--agents", "2000", "--ticks", Integer.toString(tick), "--seed", "5", "--quiet"));
            }
            unbroken = hash();
            try (Simulation sim = SimReplay.openAt(rec, tick, 1, Models.builtIn().byDefault())) {
                assertEquals(tick, sim.tickNumber());
                assertEquals(unbroken, sim.worldHash(), "tick " + tick);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> SimReplay.openAt(rec, 121, 1, Models.builtIn().byDefault()));
    }

    @Test
    void theCountersReadBackAreThoseOfTheRun() throws Exception {
        Path f = dir.resolve("counted.rec");
        List<long[]> occupancy = new ArrayList<>();
        List<long[]> fired = new ArrayList<>();
        List<long[]> scalars = new ArrayList<>();
        CrowdConfig config = CrowdConfig.defaults().withAgents(1500).withSeed(11).withWorkers(3);
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(config)); RunRecording rec = RunRecording.start(f, 7, sim, "embedded", null)) {
            for (int i = 0; i < 50; i++) {
                sim.tick();
                rec.ticked(sim);
                Recorder r = sim.system().recorder();
                long[] occ = new long[r.tree().stateCount];
                for (int s = 0; s < occ.length; s++) {
                    occ[s] = r.occupancy(s);
                }
                long[] fi = new long[r.tree().transitionCount];
                for (int t = 0; t < fi.length; t++) {
                    fi[t] = r.fired(t);
                }
                occupancy.add(occ);
                fired.add(fi);
                scalars.add(new long[] {r.failures(), r.droppedEvents(), r.rejectedEvents(), r.compositeRules(),
                        r.restarts()});
            }
            assertTrue(rec.finish(sim).startsWith("recorded: " + f + ", 50 ticks, "));
        }
        Recording rec = Recording.read(f, MAX);
        assertEquals(List.of(7L, 14L, 21L, 28L, 35L, 42L, 49L), rec.snapshotTicks());
        long firedTotal = 0;
        for (int i = 0; i < 50; i++) {
            long t = i + 1;
            assertArrayEquals(occupancy.get(i), rec.occupancy(t), "tick " + t);
            assertArrayEquals(fired.get(i), rec.fired(t), "tick " + t);
            assertArrayEquals(scalars.get(i), new long[] {rec.failures(t), rec.droppedEvents(t), rec.rejectedEvents(t),
                    rec.compositeRules(t), rec.restarts(t)}, "tick " + t);
            assertEquals(1500, Arrays.stream(rec.occupancy(t)).sum(), "tick " + t);
            firedTotal += Arrays.stream(rec.fired(t)).sum();
            assertEquals("[]", rec.inputs(t));
        }
        assertTrue(firedTotal > 0);
        assertTrue(SimReplay.verify(rec, 2, Models.builtIn().byDefault(), null).matches());
    }

    @Test
    void aLoadedWorldIsRecordedFromWhereItWasSaved() throws Exception {
        Path snap = dir.resolve("half.snap");
        Path f = dir.resolve("loaded.rec");
        assertEquals(0, run("run", "--agents", "1000", "--ticks", "90", "--seed", "4", "--quiet"));
        long whole = hash();
        assertEquals(0, run("run", "--agents", "1000", "--ticks", "40", "--seed", "4", "--quiet", "--save", snap.toString()));
        assertEquals(0, run("run", "--load", snap.toString(), "--ticks", "50", "--quiet", "--record", f.toString(),
                "--record-every", "20"), err());
        assertEquals(whole, hash());
        assertTrue(out().contains("recorded: " + f + ", 50 ticks, "), out());
        Recording rec = Recording.read(f, MAX);
        assertEquals(41, rec.firstTick());
        assertEquals(90, rec.lastTick());
        assertEquals(List.of(60L, 80L), rec.snapshotTicks());
        assertTrue(rec.header().metadataJson().contains("\"loadedFrom\":"), rec.header().metadataJson());
        SimReplay.Result r = SimReplay.verify(rec, 3, Models.builtIn().byDefault(), null);
        assertTrue(r.matches(), r.describe());
        assertEquals(whole, r.finalHash());
        try (Simulation sim = SimReplay.openAt(rec, 40, 1, Models.builtIn().byDefault())) {
            assertEquals(40, sim.tickNumber());
        }
    }

    @Test
    void aReplayThatDiffersSaysWhereAndADamagedRecordingIsRefused() throws Exception {
        Path f = dir.resolve("r.rec");
        assertEquals(0, run("run", "--agents", "300", "--ticks", "30", "--seed", "2", "--quiet", "--record", f.toString(),
                "--record-every", "10"));
        byte[] good = Files.readAllBytes(f);
        byte[] bad = good.clone();
        bad[good.length / 2] ^= 4;
        Path b = dir.resolve("bad.rec");
        Files.write(b, bad);
        RecordingException e = assertThrows(RecordingException.class, () -> Recording.read(b, MAX));
        assertTrue(e.getMessage().startsWith(b + ": "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
        Files.write(b, Arrays.copyOf(good, good.length - 10));
        e = assertThrows(RecordingException.class, () -> Recording.read(b, MAX));
        assertTrue(e.getMessage().startsWith(b + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
    }

    /** A tree that uses none of the crowd's node types runs in the plain model, which records and replays too. */
    @Test
    void aPlainModelRunIsRecordedAndReplaysToItsWorldHash() throws Exception {
        Path alone = NodeJars.REPO.resolve("examples/hsm-cleaning-robot/tree.json");
        Path f = dir.resolve("plain.rec");
        assertEquals(0, run("run", "--tree", alone.toString(), "--agents", "300", "--ticks", "40", "--quiet", "--record",
                f.toString(), "--record-every", "10"), err());
        long recorded = hash();
        assertTrue(out().contains("mode: the tree alone (no model: only its node types)"), out());
        Recording rec = Recording.read(f, MAX);
        assertEquals("model", rec.header().kind());
        assertTrue(rec.header().metadataJson().startsWith("{\"model\":\"plain\""), rec.header().metadataJson());
        assertEquals(0, run("debug", "--replay", f.toString(), "--verify", "--workers", "2"), err());
        assertEquals(String.format("replayed 40 ticks to tick 40: world hash %016x, as recorded", recorded), out().strip());
    }

    @Test
    void badRecordOptionsAreRefusedWithOneLine() throws Exception {
        assertEquals(2, run("run", "--record", dir.resolve("x.rec").toString(), "--record-every", "0"));
        assertEquals("error: --record-every = 0 is out of range; valid range is 1..2147483647", err().strip());
        assertEquals(2, run("run", "--record-every", "5"));
        assertEquals("error: --record-every is the spacing of a recording's snapshots: give --record FILE too",
                err().strip());
        assertEquals(2, run("run", "--regions", "2", "--record", dir.resolve("x.rec").toString()));
        assertTrue(err().strip().startsWith("error: --record cannot be given with --regions, --local-members or "
                + "--cluster"), err());
        assertEquals(1, err().lines().count(), err());
        assertEquals(2, run("run", "--agents", "10", "--ticks", "2", "--quiet", "--record",
                dir.resolve("no/such/dir/x.rec").toString()));
        assertEquals("error: --record " + dir.resolve("no/such/dir/x.rec") + ": its directory " + dir.resolve("no/such/dir")
                + " does not exist; make it first or write elsewhere", err().strip());
        Path same = dir.resolve("same.file");
        assertEquals(2, run("run", "--agents", "10", "--ticks", "2", "--record", same.toString(), "--save",
                dir.resolve(".").resolve("same.file").toString()));
        assertEquals("error: --record " + same + " names the file of --save; give the recording a file of its own",
                err().strip());
        assertFalse(Files.exists(dir.resolve("x.rec")));
        assertFalse(Files.exists(same));
    }
}
