package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bad input on the command line: exit 2 and one line {@code error: ...} on stderr, no stack trace,
 * no Java names; files refused before they are read; compile errors capped; names escaped.
 */
class CliLimitsTest extends CliTestBase {
    private static final String GOOD = "{\"name\":\"Guard\",\"root\":{\"name\":\"Root\",\"children\":["
            + "{\"name\":\"Patrol\",\"tasks\":[{\"type\":\"delay\",\"duration\":0.3}],\"transitions\":["
            + " {\"trigger\":\"onStateCompleted\",\"to\":\"@next\"}]},"
            + "{\"name\":\"Rest\",\"tasks\":[{\"type\":\"delay\",\"duration\":0.2}],\"transitions\":["
            + " {\"trigger\":\"onStateCompleted\",\"to\":\"Patrol\"}]}]}}";


    /** Runs the command line and checks exit 2 with one line {@code error: ...}; returns that line. */
    private String usageError(String... args) {
        out.reset();
        err.reset();
        int code = Main.execute(args);
        String e = err();
        assertEquals(2, code, List.of(args) + " -> " + e);
        List<String> lines = e.lines().toList();
        assertEquals(1, lines.size(), "one line expected from " + List.of(args) + ":\n" + e);
        String line = lines.get(0);
        assertTrue(line.startsWith("error: "), line);
        assertFalse(line.contains("Exception") || line.contains("java.") || line.contains("\tat "), line);
        assertFalse(line.chars().anyMatch(c -> c < 0x20), line);
        return line;
    }

    @Test
    void aFrameDirectoryThatCannotBeCreatedIsAUsageError() {
        String line = usageError("run", "--png", "/proc/frames", "--agents", "100", "--ticks", "1", "--quiet");
        assertTrue(line.contains("--png") && line.contains("/proc/frames"), line);
    }

    @Test
    void scenarioAgentsWorkersAndTreeNamesAreUsageErrors() throws Exception {
        write("guard.json", GOOD);
        for (String bad : List.of("\"agents\": 2147483647", "\"agents\": 1073741824", "\"workers\": 100000")) {
            Path sc = write("s.json", "{\"tree\": \"guard.json\", \"ticks\": 3, " + bad + "}");
            String line = usageError("trace", sc.toString());
            assertTrue(line.contains(bad.substring(1, bad.indexOf('"', 1))) && line.contains("at most"), line);
        }
        Path sc = write("s.json", "{\"tree\": \"gu\\u0000ard.json\", \"ticks\": 3}");
        assertTrue(usageError("trace", sc.toString()).contains("gu\\u0000ard.json"));
    }

    @Test
    void moreAgentsThanTheHeapHoldsIsAUsageErrorNotAnOutOfMemoryError() throws Exception {
        write("guard.json", GOOD);
        Path sc = write("s.json", "{\"tree\": \"guard.json\", \"ticks\": 3, \"agents\": 10000000}");
        assumeTrue(Runtime.getRuntime().maxMemory() < 8L << 30, "a heap this large might take 10,000,000 agents");
        assertTrue(usageError("trace", sc.toString()).contains("-Xmx"));
    }

    @Test
    void filesThatAreNotRegularOrTooBigAreRefusedBeforeReading() throws Exception {
        if (Files.exists(Path.of("/dev/zero"))) {
            long start = System.nanoTime();
            for (String cmd : List.of("validate", "dot")) {
                assertTrue(usageError(cmd, "/dev/zero").contains("/dev/zero: cannot read the file: it is not a regular file"));
            }
            assertTrue(usageError("run", "--tree", "/dev/zero", "--agents", "10", "--ticks", "1").contains("/dev/zero"));
            assertTrue(usageError("trace", "/dev/zero").contains("not a regular file"));
            assertTrue((System.nanoTime() - start) / 1_000_000 < 30_000);
        }
        assertTrue(usageError("validate", dir.toString()).endsWith("cannot read the file: it is a directory"));
        assertTrue(usageError("validate", dir.resolve("nope.json").toString()).endsWith("it does not exist"));
        Path big = write("big.json", GOOD);
        byte[] spaces = new byte[17 << 20];
        Arrays.fill(spaces, (byte) ' ');
        Files.write(big, spaces, java.nio.file.StandardOpenOption.APPEND);
        String line = usageError("validate", big.toString());
        assertTrue(line.matches(".*big\\.json: the file is 17,8\\d\\d,\\d{3} bytes, over the limit of 16 MB.*") && line.contains("--max-input-mb"),
                line);
        out.reset();
        assertEquals(0, Main.execute("validate", "--max-input-mb", "32", big.toString()));
        assertTrue(out().contains("OK: tree 'Guard'"), out());
        usageError("validate", "--max-input-mb", "0", big.toString());
    }

    @Test
    void theScenariosTreeStaysInItsDirectoryUnlessGivenOnTheCommandLine() throws Exception {
        Path tree = write("guard.json", GOOD);
        Path sc = write("inner/s.json", "{\"tree\": \"../guard.json\", \"ticks\": 3}");
        String line = usageError("trace", sc.toString());
        assertTrue(line.contains("outside the scenario's directory") && line.contains("--tree"), line);
        out.reset();
        assertEquals(0, Main.execute("trace", "--tree", tree.toString(), sc.toString()), err());
        assertTrue(out().startsWith("0 start\n0 enter Root changed\n"), out());
    }

    @Test
    void compileErrorsAreListedUpToAHundredAndNamesEscaped() throws Exception {
        StringBuilder sb = new StringBuilder("{\"name\": \"Many\", \"root\": {\"name\": \"R\\u001b[2J\", \"tasks\": [");
        for (int i = 0; i < 5000; i++) {
            sb.append(i == 0 ? "" : ", ").append("{\"type\": \"nope\"}");
        }
        Path p = write("many.json", sb.append("]}}").toString());
        assertEquals(1, Main.execute("validate", p.toString()));
        List<String> lines = out().lines().toList();
        assertEquals(100 + 3, lines.size(), out().substring(0, 300));
        assertEquals("... and 4900 more errors", lines.get(100));
        assertEquals("5000 errors", lines.get(101));
        assertTrue(lines.get(102).startsWith("hint: node types of your own are loaded from their jar with --nodes"),
                lines.get(102));
        assertTrue(lines.get(0).contains("state 'R\\u001B[2J'"), lines.get(0));
        assertFalse(out().contains("\u001b"));
        for (String cmd : List.of("dot", "run")) {
            err.reset();
            int code = cmd.equals("run") ? Main.execute("run", "--tree", p.toString(), "--agents", "10", "--ticks", "1")
                    : Main.execute(cmd, p.toString());
            assertTrue(code != 0);
            List<String> e = err().lines().toList();
            assertTrue(e.get(0).startsWith("error: ") && e.size() == 103, cmd + ": " + e.size() + " lines");
            assertEquals("  ... and 4900 more errors", e.get(101));
            assertTrue(e.get(102).startsWith("hint: "), e.get(102));
        }
    }

    @Test
    void traceLinesAndCliMessagesEscapeControlCharacters() throws Exception {
        write("evil.json", GOOD.replace("\"Patrol\"", "\"Pat\\u001b]0;x\\u0007rol\""));
        Path sc = write("s.json", "{\"tree\": \"evil.json\", \"ticks\": 1}");
        assertEquals(0, Main.execute("trace", sc.toString()), err());
        assertTrue(out().contains("0 enter Root/Pat\\u001B]0;x\\u0007rol changed"), out());
        assertFalse(out().contains("\u001b"));
        String line = usageError("trace", "--runtime", "fast\u001b[2J", sc.toString());
        assertTrue(line.contains("fast\\u001B[2J"), line);
        line = usageError("run", "--observer", "1,\u001b[2J", "--quiet");
        assertTrue(line.contains("\\u001B[2J"), line);
    }
}
