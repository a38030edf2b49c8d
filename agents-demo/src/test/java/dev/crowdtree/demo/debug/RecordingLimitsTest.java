package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.model.Models;
import dev.crowdtree.demo.sim.SnapshotBytes;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.record.RecordingException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static dev.crowdtree.demo.debug.DebugRecordingTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, defect 4: a recording was a decompression bomb (a declared size allocated before
 * inflating, {@code --replay} reading up to 2 GB whatever {@code --max-input-mb} said), {@code --verify}
 * never opened the periodic snapshots (a garbage one passed, and a later seek answered HTTP 500),
 * emptied counters passed {@code --verify}, and a snapshot claiming 10M agents against a 150-agent
 * start built a 1.7 GB world before it was refused. Each is now refused with one line naming the
 * file, exit 2, within the bounds.
 */
@Timeout(300)
class RecordingLimitsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    /** A crowd of 150 agents, ticks 1..30, snapshots after ticks 10, 20 and 30. */
    private static byte[] good;
    private static Path goodFile;

    @BeforeAll
    static void record() throws Exception {
        goodFile = dir.resolve("good.rec");
        DebugRecordingTest.Result r = run("run", "--agents", "150", "--ticks", "30", "--seed", "3", "--quiet",
                "--record", goodFile.toString(), "--record-every", "10");
        assertEquals(0, r.code(), r.err());
        good = Files.readAllBytes(goodFile);
        assertEquals(0, run("debug", "--replay", goodFile.toString(), "--verify").code());
    }

    private static RecordingBytes.Block block(byte[] file, long tick) {
        for (RecordingBytes.Block b : RecordingBytes.blocks(file)) {
            if (tick < 0 ? b.type() == 2 : b.tick() == tick) {
                return b;
            }
        }
        throw new AssertionError("no block of tick " + tick);
    }

    /** {@code debug --replay FILE --verify} of {@code bytes}: exit 2 and one line naming the file; that line. */
    private static String refusedByVerify(String name, byte[] bytes, String... more) throws Exception {
        Path f = Files.write(dir.resolve(name), bytes);
        String[] args = new String[4 + more.length];
        System.arraycopy(new String[] {"debug", "--replay", f.toString(), "--verify"}, 0, args, 0, 4);
        System.arraycopy(more, 0, args, 4, more.length);
        DebugRecordingTest.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> run(args));
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: " + f + ": "), r.err());
        return r.err().strip().substring(("error: " + f + ": ").length());
    }

    @Test
    void replayHonoursTheInputLimitForTheFileAndForEachSnapshotDecompressed() throws Exception {
        // the file within 1 MB, its start snapshot declared as 2 MB (600 KB of noise: deflate can give 2 MB)
        byte[] noise = new byte[600_000];
        new Random(1).nextBytes(noise);
        byte[] b = RecordingBytes.replaceSnapshot(good, block(good, -1), noise, 2 << 20);
        assertTrue(b.length < 1 << 20);
        String m = refusedByVerify("big-start.rec", b, "--max-input-mb", "1");
        assertTrue(m.matches("block 1 at byte offset \\d+, the start snapshot, declares a snapshot of 2,097,152 bytes "
                + "decompressed, over the limit of 1 MB \\(1,048,576 bytes\\) for input files; raise the limit with "
                + "--max-input-mb \\(command line\\) or the maxBytes argument \\(API\\)"), m);
        // the file itself: over the limit (16 MB by default; it was 2 GB whatever --max-input-mb said)
        Path big = dir.resolve("big.rec");
        Files.write(big, java.util.Arrays.copyOf(good, 17 << 20));
        DebugRecordingTest.Result r = run("debug", "--replay", big.toString(), "--verify");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: " + big + ": the file is 17,825,792 bytes, over the limit of 16 MB "
                + "(16,777,216 bytes) for input files; raise the limit with --max-input-mb"), r.err());
    }

    /** A periodic snapshot of 200 MB of zeros (200 KB compressed): refused when read, nothing inflated. */
    @Test
    void aPeriodicSnapshotFarLargerThanTheStartIsRefusedWithoutInflatingIt() throws Exception {
        byte[] zeros = new byte[200 << 20];
        byte[] b = RecordingBytes.replaceSnapshot(good, block(good, 20), zeros, zeros.length);
        zeros = null;
        assertTrue(b.length < 2 << 20, b.length + " bytes");
        Path f = Files.write(dir.resolve("bomb.rec"), b);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        RecordingException e = assertThrows(RecordingException.class, () -> Recording.read(f, 2047L << 20));
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 32L << 20, allocated + " bytes allocated");
        assertTrue(e.getMessage().matches(java.util.regex.Pattern.quote(f.toString()) + ": block \\d+ at byte offset "
                + "\\d+ \\(tick 20\\) declares a snapshot of 209,715,200 bytes decompressed, more than 4 times the start "
                + "snapshot's [0-9,]+ bytes and 16,777,216 more; a run's snapshots hold the agents it started with"),
                e.getMessage());
        String m = refusedByVerify("bomb2.rec", b, "--max-input-mb", "2047");
        assertTrue(m.contains("(tick 20) declares a snapshot of 209,715,200 bytes decompressed"), m);
    }

    /** A declared size is a bound, not an allocation: 40 KB of deflate declared as 40 MB allocate little. */
    @Test
    void aDeclaredSizeIsNotAllocatedBeforeThereIsDataForIt() throws Exception {
        byte[] noise = new byte[40_000];
        new Random(34).nextBytes(noise);
        byte[] b = RecordingBytes.replaceSnapshot(good, block(good, -1), noise, 40_000_000);
        Path f = Files.write(dir.resolve("declared.rec"), b);
        Recording rec = Recording.read(f, 64L << 20);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        RecordingException e = assertThrows(RecordingException.class, rec::startSnapshot);
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 4_000_000, allocated + " bytes allocated to inflate 40 KB declared as 40 MB");
        assertTrue(e.getMessage().contains("shorter than the 40,000,000 bytes its block declares): the file is damaged "
                + "or crafted"), e.getMessage());
    }

    @Test
    void verifyOpensEveryPeriodicSnapshot() throws Exception {
        byte[] garbage = new byte[30_000];
        new Random(7).nextBytes(garbage);
        byte[] b = RecordingBytes.replaceSnapshot(good, block(good, 20), garbage, garbage.length);
        assertEquals("its snapshot of tick 20: not a crowdtree snapshot", refusedByVerify("garbage.rec", b));
        // a seek onto it in the debugger: the file's fault (400) with the same line, not an internal error (500)
        Path f = dir.resolve("garbage.rec");
        try (Debugger d = Debugger.openReplay(Recording.read(f, 16L << 20), Models.builtIn(), 1,
                Debugger.Options.defaults().port(0).paused(true))) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(d.url()
                    + "api/seek?tick=25")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, r.statusCode(), r.body());
            assertEquals("time travel: " + f + ": its snapshot of tick 20: not a crowdtree snapshot",
                    JSON.readTree(r.body()).path("error").asText());
        }
        // a valid snapshot of another world (of the crowd at tick 10) filed under tick 20: its hash differs
        byte[] ten = RecordingBytes.snapshot(good, block(good, 10));
        b = RecordingBytes.replaceSnapshot(good, block(good, 20), ten, ten.length);
        Path other = Files.write(dir.resolve("other.rec"), b);
        DebugRecordingTest.Result r = run("debug", "--replay", other.toString(), "--verify");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().startsWith("replay differs at tick 20: world hash of the snapshot restored "), r.out());
    }

    /** {@code file} with tick {@code tick}'s counters replaced by {@code counters} (their varints). */
    private static byte[] withCounters(byte[] file, long tick, byte[] counters) {
        RecordingBytes.Block t = block(file, tick);
        int end = RecordingBytes.countersEnd(file, t.countersAt());
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(file, t.body(), t.countersAt() - t.body());
        body.writeBytes(counters);
        body.write(file, end, t.end() - end);
        return RecordingBytes.replaceBody(file, t, body.toByteArray());
    }

    @Test
    void countersWithoutMeaningAreRefused() throws Exception {
        // emptied in every tick (a tick alone would be refused when the file is read: it counts another tree)
        byte[] b = good;
        for (long t = 1; t <= 30; t++) {
            b = withCounters(b, t, new byte[7]); // no states, no transitions, five zero scalars
        }
        assertEquals("tick 1 counts 0 states and 0 transitions; tree 'Crowd' has 11 and 14",
                refusedByVerify("empty-counters.rec", b));
        RecordingBytes.Block t5 = block(good, 5);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(good, t5.body(), t5.countersAt() - t5.body());
        byte[] none = body.toByteArray();
        none[8] = 0; // flags: no counters
        b = RecordingBytes.replaceBody(good, t5, none);
        assertEquals("tick 5 has no counters; a run's recording has them in every tick",
                refusedByVerify("no-counters.rec", b));
        body.reset();
        body.write(good, t5.body(), t5.countersAt() - t5.body());
        RecordingBytes.writeVarint(body, 11);
        for (int s = 0; s < 11; s++) {
            RecordingBytes.writeVarint(body, 1000);
        }
        body.write(good, t5.countersAt() + 1 + skipVarints(good, t5.countersAt() + 1, 11),
                t5.end() - t5.countersAt() - 1 - skipVarints(good, t5.countersAt() + 1, 11));
        b = RecordingBytes.replaceBody(good, t5, body.toByteArray());
        assertEquals("tick 5 counts more than 150 agents in its states; there are 150 (the running agents are some of "
                + "them)", refusedByVerify("crowded-counters.rec", b));
    }

    private static int skipVarints(byte[] b, int at, int n) {
        int[] p = {at};
        for (int i = 0; i < n; i++) {
            RecordingBytes.varint(b, p);
        }
        return p[0] - at;
    }

    @Test
    void aSnapshotClaimingMoreAgentsThanTheStartIsRefusedBeforeAWorldIsBuilt() throws Exception {
        byte[] b = RecordingBytes.replaceSnapshot(good, block(good, 20), snap -> {
            try {
                int[] cfg = SnapshotBytes.section(snap, 0, snap.length, "config");
                ByteBuffer.wrap(snap).putInt(cfg[0], 10_000_000).putInt(SnapshotBytes.rowsAt(snap), 10_000_000);
                SnapshotBytes.resealAll(snap);
                return snap;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        String m = refusedByVerify("ten-million.rec", b);
        assertTrue(m.startsWith("its snapshot of tick 20: the snapshot's table claims 10,000,000 rows, but its section "
                + "ends within column 0"), m);
        Recording rec = Recording.read(dir.resolve("ten-million.rec"), 16L << 20);
        RecordingException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(
                RecordingException.class, () -> SimReplay.openAt(rec, 25, 1, Models.builtIn().byDefault())));
        assertTrue(e.getMessage().contains("its snapshot of tick 20: the snapshot's table claims 10,000,000 rows"),
                e.getMessage());
        // a whole crowd of 300 filed under tick 20 of a recording of 150
        Path other = dir.resolve("three-hundred.rec");
        assertEquals(0, run("run", "--agents", "300", "--ticks", "20", "--seed", "3", "--quiet", "--record",
                other.toString(), "--record-every", "10").code());
        byte[] bigger = Files.readAllBytes(other);
        byte[] snap300 = RecordingBytes.snapshot(bigger, block(bigger, 20));
        b = RecordingBytes.replaceSnapshot(good, block(good, 20), snap300, snap300.length);
        assertEquals("its snapshot of tick 20 holds 300 agents, its start 150; a run's snapshots hold the agents it "
                + "started with", refusedByVerify("more-agents.rec", b));
        assertEquals(List.of(10L, 20L, 30L), Recording.read(goodFile, 16L << 20).snapshotTicks());
    }
}
