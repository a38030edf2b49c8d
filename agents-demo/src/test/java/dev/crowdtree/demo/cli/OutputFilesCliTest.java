package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.testing.NodeJars;
import dev.crowdtree.statetree.record.RecordingHeader;
import dev.crowdtree.statetree.record.RecordingWriter;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, item 6 (files): {@code --record} and {@code --save} through a symbolic or a hard link
 * overwrote the file being loaded (the same-file check compared paths); to a FIFO they hung;
 * {@code debug --record FILE} overwrote FILE before it found the port busy. Outputs are now compared
 * with the inputs by identity, FIFOs, devices and directories are refused, and files are written
 * under a temporary name and moved into place when complete.
 */
class OutputFilesCliTest extends CliTestBase {
    private int run(String... args) {
        out.reset();
        err.reset();
        return Main.execute(args);
    }

    private String errLine() {
        String e = err();
        assertEquals(1, e.lines().count(), "one line expected:\n" + e);
        return e.strip();
    }

    /** No temporary file left next to the outputs. */
    private void noPartFiles() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.filter(p -> p.getFileName().toString().endsWith(".part")).count());
        }
    }

    @Test
    void anOutputThatIsTheLoadedFileThroughALinkIsRefused() throws Exception {
        Path snap = dir.resolve("w.snap");
        assertEquals(0, run("run", "--agents", "200", "--ticks", "3", "--quiet", "--save", snap.toString()));
        byte[] saved = Files.readAllBytes(snap);
        Path sym = Files.createSymbolicLink(dir.resolve("sym.rec"), snap);
        Path hard = Files.createLink(dir.resolve("hard.rec"), snap);
        assertEquals(2, run("run", "--load", snap.toString(), "--ticks", "2", "--record", sym.toString()));
        assertEquals("error: --record " + sym + " names the file of --load (" + snap + ": the same file through a link); "
                + "give the recording a file of its own", errLine());
        assertEquals(2, run("run", "--load", snap.toString(), "--ticks", "2", "--record", hard.toString()));
        assertEquals("error: --record " + hard + " names the file of --load (" + snap + ": the same file through a link); "
                + "give the recording a file of its own", errLine());
        Path other = dir.resolve("other.snap");
        assertEquals(2, run("run", "--agents", "50", "--ticks", "2", "--save", other.toString(), "--record",
                Files.createSymbolicLink(dir.resolve("to-other.rec"), other).toString()));
        assertTrue(errLine().startsWith("error: --record " + dir.resolve("to-other.rec") + " names the file of --save ("),
                err());
        assertArrayEquals(saved, Files.readAllBytes(snap));
        // continuing a world and saving it back over the file it was loaded from is allowed, whole or not at all
        assertEquals(0, run("run", "--load", hard.toString(), "--ticks", "2", "--quiet", "--save", snap.toString()),
                err());
        assertTrue(out().contains("saved: " + snap + ", tick 5, "), out());
        assertTrue(Files.isSymbolicLink(sym));
        noPartFiles();
    }

    @Test
    void fifosDevicesAndDirectoriesAreRefusedAsOutputsWithoutWaiting() throws Exception {
        Path fifo = dir.resolve("fifo.rec");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
            String notRegular = ": it is not a regular file (a pipe, a device or a socket), which is never written; an "
                    + "output is a regular file (replaced) or a new one";
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                assertEquals(2, run("run", "--agents", "50", "--ticks", "2", "--record", fifo.toString()));
                assertEquals("error: --record " + fifo + notRegular, errLine());
                assertEquals(2, run("run", "--agents", "50", "--ticks", "2", "--save", fifo.toString()));
                assertEquals("error: --save " + fifo + notRegular, errLine());
                assertEquals(2, run("debug", NodeJars.REPO.resolve("examples/debug-guards/scenario.json").toString(),
                        "--record", fifo.toString(), "--port", "0"));
                assertEquals("error: --record " + fifo + notRegular, errLine());
            });
        }
        if (Files.exists(Path.of("/dev/null"))) {
            assertEquals(2, run("run", "--agents", "50", "--ticks", "2", "--save", "/dev/null"));
            assertTrue(errLine().startsWith("error: --save /dev/null: it is not a regular file"), err());
        }
        assertEquals(2, run("run", "--agents", "50", "--ticks", "2", "--save", dir.toString()));
        assertEquals("error: --save " + dir + ": it is a directory; an output is a regular file (replaced) or a new one",
                errLine());
    }

    /** A missing directory was found only after the whole run ("cannot write ...", exit 1). */
    @Test
    void anOutputInAMissingDirectoryIsRefusedBeforeTheRun() throws Exception {
        Path missing = dir.resolve("no-such-dir").resolve("world.snap");
        assertEquals(2, run("run", "--agents", "50", "--ticks", "2", "--save", missing.toString()));
        assertEquals("error: --save " + missing + ": its directory " + missing.getParent() + " does not exist; make it "
                + "first or write elsewhere", errLine());
        assertFalse(out().contains("world hash"), out());
        assertEquals(2, run("run", "--agents", "50", "--ticks", "2", "--record", missing.toString()));
        assertTrue(errLine().startsWith("error: --record " + missing + ": its directory "), err());
        noPartFiles();
    }

    @Test
    void debugRecordLeavesTheOldFileAloneWhenThePortIsBusy() throws Exception {
        Path rec = write("old.rec", "the old file");
        Path scenario = NodeJars.REPO.resolve("examples/debug-guards/scenario.json");
        try (ServerSocket busy = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertEquals(2, run("debug", scenario.toString(), "--record", rec.toString(), "--port",
                    Integer.toString(busy.getLocalPort())));
            assertEquals("error: port " + busy.getLocalPort() + " is already in use on 127.0.0.1; choose another with "
                    + "--port", errLine());
        }
        assertEquals("the old file", Files.readString(rec));
        noPartFiles();
        // the scenario itself is not an output
        assertEquals(2, run("debug", scenario.toString(), "--record", scenario.toString(), "--port", "0"));
        assertEquals("error: --record " + scenario + " names the file of the scenario; give the recording a file of its "
                + "own", errLine());
    }

    @Test
    void aRecordingThatDoesNotFinishLeavesTheOldFileIntact() throws Exception {
        Path rec = write("kept.rec", "the old file");
        try (RecordingWriter w = RecordingWriter.create(rec, new RecordingHeader("crowd", "{}", 1), 1, new byte[10])) {
            w.tick(1, "[]", null, new byte[10], 7);
            assertEquals("the old file", Files.readString(rec));
        } // closed without finish: abandoned
        assertEquals("the old file", Files.readString(rec));
        noPartFiles();
        try (RecordingWriter w = RecordingWriter.create(rec, new RecordingHeader("crowd", "{}", 1), 1, new byte[10])) {
            w.finish(0, 7);
        }
        assertTrue(Files.size(rec) > 20 && !Files.readString(rec, java.nio.charset.StandardCharsets.ISO_8859_1)
                .startsWith("the old file"));
        noPartFiles();
    }
}
