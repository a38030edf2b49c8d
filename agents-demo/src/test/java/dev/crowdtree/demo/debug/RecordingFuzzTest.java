package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.model.Models;
import dev.crowdtree.demo.sim.SnapshotBytes;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.record.RecordingException;
import dev.crowdtree.statetree.reference.ScenarioException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.zip.DataFormatException;

import static dev.crowdtree.demo.debug.DebugRecordingTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 34: the snapshot fuzzer ({@code SnapshotMeaningTest}) extended to recordings. A real small
 * recording (a crowd of 150 agents, 30 ticks, a snapshot every 10) is mutated the way a crafted file
 * would be, every checksum recomputed: bytes of any block, bytes inside a snapshot (decompressed,
 * its own checksums recomputed, compressed again), the counters, the declared sizes (up to 2 GB),
 * blocks dropped or repeated. Each case is read with the default limit (16 MB) and verified as
 * {@code debug --replay FILE --verify} does: it must be refused with one line naming the file, differ
 * with one line, or replay to its hash; within {@value #SECONDS} s and allocating at most
 * {@value #MAX_ALLOCATED_MB} MB on the verifying thread (where snapshots are inflated and worlds built).
 *
 * <p>Cases: the system property {@code crowdtree.fuzz.recordings} (default 200, which CI runs; 1,000
 * or more by hand: {@code -Dcrowdtree.fuzz.recordings=1000}).
 */
class RecordingFuzzTest {
    static final int SECONDS = 30;
    static final int MAX_ALLOCATED_MB = 256;
    private static final long LIMIT = 16L << 20;

    @TempDir
    static Path dir;

    private static byte[] good;
    private static List<RecordingBytes.Block> blocks;

    @BeforeAll
    static void record() throws Exception {
        Path f = dir.resolve("good.rec");
        DebugRecordingTest.Result r = run("run", "--agents", "150", "--ticks", "30", "--seed", "9", "--quiet",
                "--record", f.toString(), "--record-every", "10");
        assertEquals(0, r.code(), r.err());
        good = Files.readAllBytes(f);
        blocks = RecordingBytes.blocks(good);
    }

    /** What a case came to. */
    private enum Outcome { REFUSED_READING, REFUSED_VERIFYING, DIFFERS, REPLAYED }

    @Test
    void mutatedRecordingsAreRefusedWithOneLineOrReplayToTheirHash() throws Exception {
        int cases = Integer.getInteger("crowdtree.fuzz.recordings", 200);
        SplittableRandom rng = new SplittableRandom(34);
        TreeMap<String, Integer> counts = new TreeMap<>();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long slowest = 0;
        long most = 0;
        for (int c = 0; c < cases; c++) {
            String[] kind = new String[1];
            byte[] b = mutate(rng, kind);
            Path f = Files.write(dir.resolve("fuzz.rec"), b);
            final int index = c;
            long t0 = System.nanoTime();
            long[] allocated = new long[1];
            Outcome o = assertTimeoutPreemptively(Duration.ofSeconds(SECONDS), () -> {
                long before = mx.getCurrentThreadAllocatedBytes();
                try {
                    return verify(f, index, kind[0]);
                } finally {
                    allocated[0] = mx.getCurrentThreadAllocatedBytes() - before;
                }
            }, () -> "case " + index + " (" + kind[0] + ") ran longer than " + SECONDS + " s");
            slowest = Math.max(slowest, System.nanoTime() - t0);
            most = Math.max(most, allocated[0]);
            assertTrue(allocated[0] < (long) MAX_ALLOCATED_MB << 20, "case " + c + " (" + kind[0] + ") allocated "
                    + allocated[0] + " bytes");
            counts.merge(kind[0] + " " + o.name().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum);
        }
        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        assertEquals(cases, total);
        assertTrue(counts.keySet().stream().anyMatch(k -> k.endsWith("replayed")), counts.toString());
        assertTrue(counts.keySet().stream().anyMatch(k -> k.contains("refused")), counts.toString());
        System.out.printf(java.util.Locale.ROOT, "recording fuzzer: %d cases, slowest %.2f s, most allocated %.1f MB: %s%n",
                cases, slowest / 1e9, most / 1048576.0, counts);
    }

    /** Reads and verifies {@code f} as {@code debug --replay f --verify} does; what came of it. */
    private static Outcome verify(Path f, int c, String kind) {
        Recording rec;
        try {
            rec = Recording.read(f, LIMIT);
        } catch (IOException e) {
            oneLineNamingTheFile(f, c, kind, e);
            return Outcome.REFUSED_READING;
        } catch (RuntimeException e) {
            throw new AssertionError("case " + c + " (" + kind + "): reading failed with " + e, e);
        }
        try {
            StringBuilder line = new StringBuilder();
            boolean same = Recordings.verify(rec, Models.builtIn(), 1, line);
            assertEquals(1, line.toString().lines().count(), "case " + c + " (" + kind + "): " + line);
            if (same) {
                assertTrue(line.toString().endsWith(", as recorded"), line.toString());
                return Outcome.REPLAYED;
            }
            assertTrue(line.toString().startsWith("replay differs at tick "), "case " + c + ": " + line);
            return Outcome.DIFFERS;
        } catch (IOException e) {
            oneLineNamingTheFile(f, c, kind, e);
            return Outcome.REFUSED_VERIFYING;
        } catch (StateTreeCompileException | ScenarioException e) {
            String m = e.getMessage();
            assertTrue(m != null && !m.isBlank(), "case " + c + " (" + kind + "): " + e);
            return Outcome.REFUSED_VERIFYING;
        } catch (RuntimeException e) {
            throw new AssertionError("case " + c + " (" + kind + "): verifying failed with " + e, e);
        }
    }

    private static void oneLineNamingTheFile(Path f, int c, String kind, IOException e) {
        String m = e.getMessage();
        assertTrue(e instanceof RecordingException, "case " + c + " (" + kind + "): not a RecordingException: " + e);
        assertTrue(m != null && m.startsWith(f + ": ") && !m.contains("\n"), "case " + c + " (" + kind + "): " + m);
    }

    // ---- mutations: every checksum recomputed -------------------------------------------------------

    private static byte[] mutate(SplittableRandom rng, String[] kind) throws DataFormatException {
        int k = rng.nextInt(100);
        if (k < 25) {
            kind[0] = "block bytes";
            return blockBytes(rng);
        }
        if (k < 60) {
            kind[0] = "snapshot bytes";
            return snapshotBytes(rng);
        }
        if (k < 75) {
            kind[0] = "counters";
            return counters(rng);
        }
        if (k < 88) {
            kind[0] = "declared size";
            return declaredSize(rng);
        }
        kind[0] = "blocks dropped or repeated";
        return dropOrRepeat(rng);
    }

    private static RecordingBytes.Block any(SplittableRandom rng, java.util.function.Predicate<RecordingBytes.Block> which) {
        List<RecordingBytes.Block> some = new ArrayList<>();
        for (RecordingBytes.Block b : blocks) {
            if (which.test(b)) {
                some.add(b);
            }
        }
        return some.get(rng.nextInt(some.size()));
    }

    private static byte flip(SplittableRandom rng, byte v) {
        return (byte) (rng.nextInt(3) == 0 ? v ^ (1 << rng.nextInt(8)) : rng.nextInt(256));
    }

    /** 1 to 4 bytes of one block's body (or, one time in ten, its frame), its checksum recomputed. */
    private static byte[] blockBytes(SplittableRandom rng) {
        byte[] b = good.clone();
        RecordingBytes.Block blk = any(rng, x -> x.length() > 0);
        for (int i = 0, n = 1 + rng.nextInt(4); i < n; i++) {
            int at = rng.nextInt(10) == 0 ? blk.at() + rng.nextInt(5) : blk.body() + rng.nextInt(blk.length());
            b[at] = flip(rng, b[at]);
        }
        RecordingBytes.reseal(b, blk);
        return b;
    }

    /**
     * 1 to 4 bytes inside a snapshot (the start or a periodic one), a third of them in its system
     * section's runtime and world sections; its containers resealed when they still parse.
     */
    private static byte[] snapshotBytes(SplittableRandom rng) throws DataFormatException {
        RecordingBytes.Block blk = any(rng, x -> x.snapshotAt() >= 0);
        return RecordingBytes.replaceSnapshot(good, blk, snap -> {
            int[] hot = null;
            try {
                int[] sys = SnapshotBytes.section(snap, 0, snap.length, "system");
                int[] world = SnapshotBytes.section(snap, sys[0], sys[1], "world");
                int[] rt = SnapshotBytes.section(snap, sys[0], sys[1], "runtime");
                hot = rng.nextBoolean() ? rt : new int[] {world[0], Math.min(world[1], 64)};
            } catch (IOException | AssertionError e) {
                // not parsed: anywhere
            }
            for (int i = 0, n = 1 + rng.nextInt(4); i < n; i++) {
                int at = hot != null && rng.nextInt(3) == 0 ? hot[0] + rng.nextInt(Math.max(1, hot[1]))
                        : 20 + rng.nextInt(snap.length - 24);
                snap[at] = flip(rng, snap[at]);
            }
            try {
                SnapshotBytes.resealAll(snap);
            } catch (IOException | AssertionError | RuntimeException e) {
                SnapshotBytes.reseal(snap, 0, snap.length);
            }
            return snap;
        });
    }

    /** A byte of one tick's counters (their varints), the block resealed. */
    private static byte[] counters(SplittableRandom rng) {
        byte[] b = good.clone();
        RecordingBytes.Block blk = any(rng, x -> x.countersAt() >= 0);
        int at = blk.countersAt() + rng.nextInt(RecordingBytes.countersEnd(b, blk.countersAt()) - blk.countersAt());
        b[at] = flip(rng, b[at]);
        RecordingBytes.reseal(b, blk);
        return b;
    }

    /** A snapshot's declared size changed (from 0 to 2 GB), its bytes as they were. */
    private static byte[] declaredSize(SplittableRandom rng) throws DataFormatException {
        RecordingBytes.Block blk = any(rng, x -> x.snapshotAt() >= 0);
        byte[] raw = RecordingBytes.snapshot(good, blk);
        long[] sizes = {0, 1, raw.length - 1L, raw.length + 1L, 2L * raw.length, 40_000_000, 1L << 30,
                Integer.MAX_VALUE};
        long declared = sizes[rng.nextInt(sizes.length)];
        return RecordingBytes.replaceSnapshot(good, blk, raw, declared);
    }

    /** A tick block dropped, or repeated, or the end block's counts changed. */
    private static byte[] dropOrRepeat(SplittableRandom rng) {
        RecordingBytes.Block blk = any(rng, x -> x.type() == 3 || x.type() == 4);
        int len = blk.end() + 4 - blk.at();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(good, 0, blk.at());
        int what = rng.nextInt(3);
        if (what == 1) {
            out.write(good, blk.at(), len);
            out.write(good, blk.at(), len);
        } else if (what == 2 && blk.type() == 4) {
            byte[] end = java.util.Arrays.copyOfRange(good, blk.at(), blk.at() + len);
            ByteBuffer.wrap(end).putLong(5 + 16, rng.nextLong());
            out.writeBytes(end);
            byte[] all = out.toByteArray();
            RecordingBytes.reseal(all, new RecordingBytes.Block(4, blk.at(), blk.at() + 5, blk.length(), -1, -1, 0, -1));
            out.reset();
            out.writeBytes(all);
        } else if (what == 2 && blk.end() + 4 < good.length - 33) {
            out.write(good, blk.at(), len); // the block kept, the one after it dropped below
        }
        int from = blk.at() + len;
        if (what == 2 && blk.type() == 3 && from < good.length - 33) {
            from += 5 + ByteBuffer.wrap(good).getInt(from + 1) + 4;
        }
        out.write(good, from, good.length - from);
        return out.toByteArray();
    }
}
