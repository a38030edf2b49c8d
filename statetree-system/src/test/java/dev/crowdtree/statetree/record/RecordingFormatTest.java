package dev.crowdtree.statetree.record;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recording format (docs/RECORDING.md): what {@link RecordingWriter} writes {@link Recording}
 * reads back exactly; every kind of damage is refused with one line naming the file.
 */
class RecordingFormatTest {
    private static final long MAX = 1L << 26;

    @TempDir
    Path dir;

    private static final CompiledStateTree TREE = compile();

    private static CompiledStateTree compile() {
        try {
            return StateTreeCompiler.withBuiltins().compile(CrowdTrees.crowd());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A snapshot-like byte array: compressible, different per tick. */
    private static byte[] snapshot(long tick, int size) {
        byte[] b = new byte[size];
        Random r = new Random(tick);
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i % 7 == 0 ? r.nextInt() : i / 100);
        }
        return b;
    }

    /** Counters of tick {@code tick}: deterministic in the tick. */
    private static Recorder counters(Recorder r, long tick) {
        r.beginTick();
        r.clearOccupancy();
        for (int s = 0; s < TREE.stateCount; s++) {
            for (int k = 0; k < (s * 37 + tick) % 300; k++) {
                r.countOccupancy(s);
            }
        }
        for (int t = 0; t < TREE.transitionCount; t++) {
            for (int k = 0; k < (t * 11 + tick) % 5; k++) {
                r.countFired(t, 0);
            }
        }
        r.countFired(-1, 0);
        r.countFired(-2, 0);
        r.countFired(-2, 0);
        r.endTick(tick, tick * 3, tick * 2, tick);
        return r;
    }

    /** Ticks 11..40, snapshots every 10 (20, 30, 40), inputs at 15, counters on all but tick 12. */
    private Path write(String name) throws IOException {
        Path f = dir.resolve(name);
        Recorder rec = new Recorder(TREE);
        try (RecordingWriter w = RecordingWriter.create(f, new RecordingHeader("scenario", "{\"agents\": 3}", 10), 11,
                snapshot(10, 5000))) {
            for (long t = 11; t <= 40; t++) {
                counters(rec, t);
                w.tick(t, t == 15 ? "[{\"tick\": 15, \"event\": \"Alarm\"}]" : "[]", t == 12 ? null : rec,
                        t % 10 == 0 ? snapshot(t, 5000 + (int) t) : null, t * 1_000_003L);
            }
            w.finish(40, 40 * 1_000_003L);
            assertEquals(Files.size(f), w.bytesWritten());
        }
        return f;
    }

    @Test
    void whatIsWrittenIsReadBack() throws IOException {
        Recording r = Recording.read(write("a.rec"), MAX);
        assertEquals(new RecordingHeader("scenario", "{\"agents\": 3}", 10), r.header());
        assertEquals(11, r.firstTick());
        assertEquals(40, r.lastTick());
        assertEquals(40 * 1_000_003L, r.finalHash());
        assertArrayEquals(snapshot(10, 5000), r.startSnapshot());
        assertArrayEquals(snapshot(10, 5000), r.snapshot(10));
        assertEquals(List.of(20L, 30L, 40L), r.snapshotTicks());
        for (long t : new long[] {20, 30, 40}) {
            assertArrayEquals(snapshot(t, 5000 + (int) t), r.snapshot(t));
            assertEquals(t * 1_000_003L, r.worldHashAt(t));
        }
        assertEquals(10, r.snapshotTickAtOrBefore(11));
        assertEquals(10, r.snapshotTickAtOrBefore(19));
        assertEquals(20, r.snapshotTickAtOrBefore(20));
        assertEquals(30, r.snapshotTickAtOrBefore(39));
        assertEquals(40, r.snapshotTickAtOrBefore(40));
        assertThrows(IllegalArgumentException.class, () -> r.snapshot(25));
        assertThrows(IllegalArgumentException.class, () -> r.worldHashAt(25));
        assertEquals("[{\"tick\": 15, \"event\": \"Alarm\"}]", r.inputs(15));
        assertEquals("[]", r.inputs(16));
        assertThrows(IllegalArgumentException.class, () -> r.inputs(41));
        assertTrue(r.hasCounters());
        assertNull(r.occupancy(12));
        assertNull(r.fired(12));
        assertEquals(0, r.failures(12));
        Recorder expected = new Recorder(TREE);
        for (long t = 11; t <= 40; t++) {
            counters(expected, t);
            if (t == 12) {
                continue;
            }
            long[] occ = new long[TREE.stateCount];
            for (int s = 0; s < occ.length; s++) {
                occ[s] = expected.occupancy(s);
            }
            long[] fired = new long[TREE.transitionCount];
            for (int tr = 0; tr < fired.length; tr++) {
                fired[tr] = expected.fired(tr);
            }
            assertArrayEquals(occ, r.occupancy(t), "tick " + t);
            assertArrayEquals(fired, r.fired(t), "tick " + t);
            assertEquals(expected.failures(), r.failures(t));
            assertEquals(expected.droppedEvents(), r.droppedEvents(t));
            assertEquals(expected.rejectedEvents(), r.rejectedEvents(t));
            assertEquals(1, r.restarts(t));
            assertEquals(2, r.compositeRules(t));
        }
    }

    @Test
    void aRecordingOfNoTicksHasOnlyItsStart() throws IOException {
        Path f = dir.resolve("empty.rec");
        try (RecordingWriter w = RecordingWriter.create(f, new RecordingHeader("crowd", "{}", 100), 1, new byte[0])) {
            assertThrows(IllegalArgumentException.class, () -> w.finish(5, 0));
            w.finish(0, 42);
        }
        Recording r = Recording.read(f, MAX);
        assertEquals(1, r.firstTick());
        assertEquals(0, r.lastTick());
        assertEquals(42, r.worldHashAt(0));
        assertEquals(0, r.snapshotTickAtOrBefore(0));
        assertEquals(0, r.startSnapshot().length);
        assertFalse(r.hasCounters());
    }

    @Test
    void theWriterRefusesTicksOutOfOrder() throws IOException {
        try (RecordingWriter w = RecordingWriter.create(dir.resolve("o.rec"), new RecordingHeader("crowd", "{}", 1), 1,
                new byte[3])) {
            w.tick(1, "[]", null, null, 0);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.tick(3, "[]", null, null, 0));
            assertEquals("tick 3 recorded out of order: tick 2 comes next", e.getMessage());
        }
    }

    /** The one-line message of reading {@code bytes} as a recording, which must be refused. */
    private String refusal(byte[] bytes) throws IOException {
        Path f = dir.resolve("bad.rec");
        Files.write(f, bytes);
        RecordingException e = assertThrows(RecordingException.class, () -> Recording.read(f, MAX));
        String m = e.getMessage();
        assertEquals(1, m.lines().count(), m);
        assertTrue(m.startsWith(f + ": "), m);
        return m.substring(f.toString().length() + 2);
    }

    @Test
    void everyDamageIsRefusedWithOneLine() throws IOException {
        byte[] good = Files.readAllBytes(write("good.rec"));
        // a bit flip anywhere past the preamble: a checksum mismatch or a length beyond the file
        for (int at = 12; at < good.length; at += Math.max(1, good.length / 301)) {
            for (int bit : new int[] {0, 5}) {
                byte[] b = good.clone();
                b[at] ^= (byte) (1 << bit);
                String m = refusal(b);
                assertTrue(m.startsWith("checksum mismatch in block ") || m.contains("beyond the end of the file")
                        || m.contains("unknown block type") && m.contains("at byte offset"), at + ": " + m);
            }
        }
        // truncated anywhere: within a frame, within a body, or between blocks (no end block)
        for (int len = 12; len < good.length; len += Math.max(1, good.length / 97)) {
            String m = refusal(Arrays.copyOf(good, len));
            assertTrue(m.startsWith("truncated: ") || m.contains("beyond the end of the file")
                    || m.startsWith("no end block: the recording is incomplete"), len + ": " + m);
        }
        assertTrue(refusal(Arrays.copyOf(good, good.length - 1)).contains("beyond the end of the file"));
        String m = refusal(Arrays.copyOf(good, good.length - 33)); // the end block (5 + 24 + 4 bytes) cut off
        assertTrue(m.startsWith("no end block: the recording is incomplete (the file ends at byte offset "
                + (good.length - 33) + " after 32 blocks, the last of tick 40;"), m);
        assertEquals("not a crowdtree recording: it does not begin with the recording magic (CTREC, docs/RECORDING.md)",
                refusal("{\"agents\": 5}".getBytes()));
        assertTrue(refusal(new byte[0]).startsWith("not a crowdtree recording"));
        byte[] v = good.clone();
        v[11] = 7;
        assertEquals("recording format version 7, this build reads version 1", refusal(v));
        byte[] more = Arrays.copyOf(good, good.length + 3);
        assertTrue(refusal(more).startsWith("3 bytes after the end block, from byte offset " + good.length), refusal(more));
        // a length beyond the file in the first block's frame
        byte[] huge = good.clone();
        huge[13] = 0x7f;
        assertTrue(refusal(huge).startsWith("block 0 at byte offset 12 declares a body of "), refusal(huge));
    }

    @Test
    void ticksOutOfOrderAndAWrongEndAreRefused() throws IOException {
        // a well-framed file whose second tick block repeats the first: written with a forged frame
        Path f = dir.resolve("forged.rec");
        try (RecordingWriter w = RecordingWriter.create(f, new RecordingHeader("crowd", "{}", 1), 1, new byte[3])) {
            w.tick(1, "[]", null, null, 0);
            w.tick(2, "[]", null, null, 0);
            w.finish(2, 9);
        }
        byte[] b = Files.readAllBytes(f);
        // the tick field of tick 2's block: find the second tick block (type 3) and change its tick to 5
        int pos = 12;
        int seen = 0;
        while (true) {
            int len = (b[pos + 1] & 0xff) << 24 | (b[pos + 2] & 0xff) << 16 | (b[pos + 3] & 0xff) << 8 | (b[pos + 4] & 0xff);
            if (b[pos] == 3 && ++seen == 2) {
                b[pos + 5 + 7] = 5;
                java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
                crc.update(b, pos, 5 + len);
                int c = (int) crc.getValue();
                int at = pos + 5 + len;
                b[at] = (byte) (c >>> 24);
                b[at + 1] = (byte) (c >>> 16);
                b[at + 2] = (byte) (c >>> 8);
                b[at + 3] = (byte) c;
                break;
            }
            pos += 5 + len + 4;
        }
        assertTrue(refusal(b).matches("block 3 at byte offset \\d+ is tick 5, out of order: tick 2 comes next \\(ticks come "
                + "in order from the first tick, 1\\)"), refusal(b));
    }

    /** {@code b} with the start snapshot's declared size set to {@code raw} and its block's checksum recomputed. */
    private static byte[] declareStart(byte[] b, int raw) {
        int pos = 12 + 5 + ((b[13] & 0xff) << 24 | (b[14] & 0xff) << 16 | (b[15] & 0xff) << 8 | (b[16] & 0xff)) + 4;
        int len = (b[pos + 1] & 0xff) << 24 | (b[pos + 2] & 0xff) << 16 | (b[pos + 3] & 0xff) << 8 | (b[pos + 4] & 0xff);
        byte[] out = b.clone();
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(out);
        buf.putInt(pos + 5, raw);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(out, pos, 5 + len);
        buf.putInt(pos + 5 + len, (int) crc.getValue());
        return out;
    }

    /**
     * Issue 34, defect 4: a snapshot's declared size was allocated before inflating (2 GB for a crafted
     * 1.9 MB file). Now a declared size over the limit, or beyond what its compressed bytes can inflate
     * to, is refused when the file is read, and inflating allocates as the output comes.
     */
    @Test
    void aDeclaredSnapshotSizeIsBoundedByTheLimitAndByItsCompressedBytes() throws IOException {
        byte[] good = Files.readAllBytes(write("sizes.rec"));
        assertEquals("block 1 at byte offset 56, the start snapshot, declares a snapshot of 2,147,483,647 bytes "
                + "decompressed, over the limit of 64 MB (67,108,864 bytes) for input files; raise the limit with "
                + "--max-input-mb (command line) or the maxBytes argument (API)", refusal(declareStart(good, Integer.MAX_VALUE)));
        String m = refusal(declareStart(good, 60_000_000));
        assertTrue(m.matches("block 1 at byte offset 56, the start snapshot, declares a snapshot of 60,000,000 bytes "
                + "decompressed from [0-9,]+ compressed bytes, more than deflate expands them \\(at most 1,032 times\\): "
                + "the file is damaged or crafted, though its checksum matches"), m);
    }

    /** The declared size bounds the inflation; a stream shorter than it is refused naming the file, one line. */
    @Test
    void aSnapshotShorterThanItsDeclaredSizeIsRefused() throws IOException {
        Path f = dir.resolve("noise.rec");
        byte[] noise = new byte[40_000];
        new Random(34).nextBytes(noise); // incompressible: 40 KB of deflate may declare up to 41 MB
        try (RecordingWriter w = RecordingWriter.create(f, new RecordingHeader("crowd", "{}", 1), 1, noise)) {
            w.finish(0, 1);
        }
        Files.write(f, declareStart(Files.readAllBytes(f), 40_000_000));
        Recording r = Recording.read(f, MAX);
        // the allocation (less than 4 MB, not the 40 MB declared) is measured in agents-demo's RecordingFuzzTest
        RecordingException e = assertThrows(RecordingException.class, r::startSnapshot);
        assertEquals(f + ": the snapshot of tick 0 at byte offset 51 does not decompress (the compressed snapshot is "
                + "shorter than the 40,000,000 bytes its block declares): the file is damaged or crafted, though its "
                + "block's checksum matches; a recording's snapshots are deflate streams of the size their blocks "
                + "declare", e.getMessage());
    }

    @Test
    void filesThatAreNotRegularOrTooBigAreRefusedBeforeTheyAreRead() throws IOException {
        Path f = write("big.rec");
        RecordingException e = assertThrows(RecordingException.class, () -> Recording.read(f, 1000));
        assertTrue(e.getMessage().startsWith(f + ": the file is "), e.getMessage());
        assertTrue(e.getMessage().contains("over the limit of 1,000 bytes"), e.getMessage());
        e = assertThrows(RecordingException.class, () -> Recording.read(dir, MAX));
        assertEquals(dir + ": cannot read the file: it is a directory", e.getMessage());
        if (Files.exists(Path.of("/dev/zero"))) {
            e = assertThrows(RecordingException.class, () -> Recording.read(Path.of("/dev/zero"), MAX));
            assertEquals("/dev/zero: cannot read the file: it is not a regular file (a device, a pipe or a socket)",
                    e.getMessage());
        }
        e = assertThrows(RecordingException.class, () -> Recording.read(dir.resolve("none.rec"), MAX));
        assertEquals(dir.resolve("none.rec") + ": cannot read the file: it does not exist", e.getMessage());
    }
}
