package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.sim.CrowdSim;
import org.junit.jupiter.api.Test;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run --save} and {@code run --load} (docs/SNAPSHOT.md): a run saved halfway and loaded
 * ends with the world hash of the run never stopped; bad snapshots and world options given with
 * {@code --load} are refused with exit 2 and one line.
 */
class SnapshotCliTest extends CliTestBase {
    /** Runs the command line; returns its exit code, leaving its output in out/err (cleared first). */
    private int run(String... args) {
        out.reset();
        err.reset();
        return Main.execute(args);
    }

    private String hashLine() {
        return out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("world hash: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no world hash in:\n" + out.toString(StandardCharsets.UTF_8)));
    }

    private String errLine() {
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, e.lines().count(), "one line expected:\n" + e);
        return e.strip();
    }

    @Test
    void aSavedAndLoadedRunEndsWithTheHashOfAnUnbrokenOne() throws Exception {
        Path f = dir.resolve("crowd.snap");
        assertEquals(0, run("run", "--agents", "2000", "--ticks", "100", "--seed", "7", "--workers", "2", "--quiet"));
        String whole = hashLine();
        assertEquals(0, run("run", "--agents", "2000", "--ticks", "50", "--seed", "7", "--workers", "2", "--quiet",
                "--save", f.toString()));
        String half = hashLine();
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("saved: " + f + ", tick 50, "));
        assertEquals(0, run("run", "--load", f.toString(), "--ticks", "50", "--workers", "1", "--quiet"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("loaded: " + f + ", from tick 50"));
        assertEquals(whole, hashLine());
        assertTrue(!half.equals(whole));
        // with LOD (tick periods, pending period switches) and across a reorder of the table (tick 64)
        assertEquals(0, run("run", "--agents", "1500", "--ticks", "70", "--seed", "3", "--lod", "--observer", "600,800",
                "--quiet"));
        String lodWhole = hashLine();
        assertEquals(0, run("run", "--agents", "1500", "--ticks", "33", "--seed", "3", "--lod", "--observer", "600,800",
                "--quiet", "--save", f.toString()));
        assertEquals(0, run("run", "--load", f.toString(), "--ticks", "37", "--quiet"));
        assertEquals(lodWhole, hashLine());
    }

    @Test
    void badSnapshotsAndWorldOptionsWithLoadAreRefused() throws Exception {
        Path f = dir.resolve("crowd.snap");
        assertEquals(0, run("run", "--agents", "500", "--ticks", "5", "--seed", "2", "--quiet", "--save", f.toString()));
        byte[] good = Files.readAllBytes(f);
        Path bad = dir.resolve("bad.snap");
        Files.write(bad, Arrays.copyOf(good, good.length / 2));
        assertEquals(2, run("run", "--load", bad.toString(), "--ticks", "5"));
        assertEquals("error: " + bad + ": checksum mismatch: the file is corrupted or truncated", errLine());
        byte[] flipped = good.clone();
        flipped[good.length / 3] ^= 1;
        Files.write(bad, flipped);
        assertEquals(2, run("run", "--load", bad.toString(), "--ticks", "5"));
        assertEquals("error: " + bad + ": checksum mismatch: the file is corrupted or truncated", errLine());
        byte[] version = good.clone();
        version[11] = 3;
        Files.write(bad, version);
        assertEquals(2, run("run", "--load", bad.toString(), "--ticks", "5"));
        assertEquals("error: " + bad + ": snapshot format version 3, this build reads 1", errLine());
        Files.writeString(bad, "{\"agents\": 5}");
        assertEquals(2, run("run", "--load", bad.toString(), "--ticks", "5"));
        assertEquals("error: " + bad + ": not a crowdtree snapshot", errLine());
        for (String[] opt : new String[][] {{"--agents", "10"}, {"--seed", "2"}, {"--dt", "0.1"}}) {
            assertEquals(2, run("run", "--load", f.toString(), opt[0], opt[1], "--ticks", "5"));
            assertEquals("error: " + opt[0] + " cannot be given with --load: the world's options come from the snapshot",
                    errLine());
        }
    }

    /**
     * Issue 23, defect 4: {@code --load} read whatever it was given whole before looking at it
     * ({@code /dev/zero} until out of memory, a FIFO forever, a 1.5 GB file before its magic). Now
     * only regular files are read, within the limit, and the header is checked first.
     */
    @Test
    void loadRefusesWhatCannotBeASnapshotBeforeReadingIt() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            String notRegular = ": it is not a regular file (a device, a pipe or a socket), so not a snapshot";
            if (Files.exists(Path.of("/dev/zero"))) {
                assertEquals(2, run("run", "--load", "/dev/zero", "--ticks", "5"));
                assertEquals("error: /dev/zero" + notRegular, errLine());
            }
            Path fifo = dir.resolve("fifo.snap");
            if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
                assertEquals(2, run("run", "--load", fifo.toString(), "--ticks", "5"));
                assertEquals("error: " + fifo + notRegular, errLine());
            }
            assertEquals(2, run("run", "--load", dir.toString(), "--ticks", "5"));
            assertEquals("error: " + dir + ": it is a directory, not a snapshot file", errLine());
            // sparse files: large on paper, nothing on disk
            Path big = dir.resolve("big.snap");
            try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
                f.write("{\"agents\": 5}".getBytes(StandardCharsets.US_ASCII));
                f.setLength(1_500_000_000L);
            }
            assertEquals(2, run("run", "--load", big.toString(), "--ticks", "5", "--max-input-mb", "2047"));
            assertEquals("error: " + big + ": not a crowdtree snapshot", errLine());
            // issue 34: --max-input-mb applies to --load (default 16 MB)
            assertEquals(2, run("run", "--load", big.toString(), "--ticks", "5"));
            assertEquals("error: " + big + ": the file is 1,500,000,000 bytes, over the limit of 16 MB (16,777,216 bytes) "
                    + "for input files; raise the limit with --max-input-mb (1..2047)", errLine());
            try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
                f.setLength(3L << 30);
            }
            assertEquals(2, run("run", "--load", big.toString(), "--ticks", "5", "--max-input-mb", "2047"));
            assertEquals("error: " + big + ": the file is 3,221,225,472 bytes, over the limit of 2047 MB (2,146,435,072 "
                    + "bytes) for input files; raise the limit with --max-input-mb (1..2047)", errLine());
            Files.delete(big);
        });
    }

    /**
     * Issue 34, defect 3: a snapshot whose timers' dt is +Infinity (checksums recomputed) loaded and then
     * failed with "unexpected failure ... please report it", exit 1; a huge step count made the first tick
     * take a minute. Both are refused with one line naming the file, exit 2, before anything runs.
     */
    @Test
    void aSnapshotWithAnImpossibleDtOrStepCountIsRefusedNamingTheFile() throws Exception {
        Path f = dir.resolve("crowd.snap");
        assertEquals(0, run("run", "--agents", "300", "--ticks", "5", "--seed", "2", "--quiet", "--save", f.toString()));
        byte[] good = Files.readAllBytes(f);
        int[] rt = dev.crowdtree.demo.sim.SnapshotBytes.runtime(good);
        Path bad = dir.resolve("inf.snap");
        byte[] b = good.clone();
        java.nio.ByteBuffer.wrap(b).putFloat(rt[0] + 4, Float.POSITIVE_INFINITY);
        dev.crowdtree.demo.sim.SnapshotBytes.resealAll(b);
        Files.write(bad, b);
        assertEquals(2, run("run", "--load", bad.toString(), "--ticks", "5"));
        assertEquals("error: " + bad + ": the snapshot's runtime derived its timers with dt Infinity s, its crowd section "
                + "(and configuration) gives dt 0.0333333 s; a simulation ticks with one dt, so they are the same number",
                errLine());
        b = good.clone();
        java.nio.ByteBuffer.wrap(b).putInt(rt[0], 2_000_000_000);
        dev.crowdtree.demo.sim.SnapshotBytes.resealAll(b);
        Files.write(bad, b);
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertEquals(2, run("run", "--load", bad.toString(),
                "--ticks", "1")));
        assertTrue(errLine().startsWith("error: " + bad + ": the snapshot's ticks disagree: "), err.toString());
    }

    @Test
    void controlCharactersInSnapshotFileNamesArePrintedEscaped() throws Exception {
        Path f = dir.resolve("a\u001b[31m\u0007.snap");
        assertEquals(2, run("run", "--load", f.toString(), "--ticks", "5"));
        String e = errLine();
        assertEquals("error: " + dir + "/a\\u001B[31m\\u0007.snap: no such file", e);
        Path saved = dir.resolve("b\u001b.snap");
        assertEquals(0, run("run", "--agents", "200", "--ticks", "2", "--quiet", "--save", saved.toString()));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("saved: " + dir + "/b\\u001B.snap, tick 2, ") && !o.contains("\u001b"), o);
    }

    @Test
    void aSnapshotOfAnotherTreeIsRefusedNamingBoth() throws Exception {
        String tree = CrowdSim.embeddedTreeText();
        Path t = dir.resolve("crowd.json");
        Files.writeString(t, tree);
        Path f = dir.resolve("tree.snap");
        assertEquals(0, run("run", "--agents", "300", "--ticks", "5", "--tree", t.toString(), "--quiet", "--save",
                f.toString()));
        assertEquals(0, run("run", "--load", f.toString(), "--ticks", "5", "--quiet"));
        String renamed = tree.replaceFirst("\"name\"\\s*:\\s*\"Crowd\"", "\"name\": \"Herd\"");
        assertTrue(!renamed.equals(tree));
        Files.writeString(t, renamed);
        assertEquals(2, run("run", "--load", f.toString(), "--ticks", "5"));
        String e = errLine();
        assertTrue(e.startsWith("error: " + f + ": snapshot of tree 'Crowd' (fingerprint "), e);
        assertTrue(e.contains("), this runtime runs tree 'Herd' (fingerprint "), e);
    }
}
