package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.CrowdLodTest;
import dev.crowdtree.demo.sim.CrowdSim;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line: exit codes, messages and outputs of every subcommand. */
class CliTest extends CliTestBase {
    private static final String GOOD = "{\"name\":\"Guard\",\"parameters\":{\"threat\":{\"type\":\"float\",\"default\":0}},"
            + "\"root\":{\"name\":\"Root\",\"children\":["
            + "{\"name\":\"Patrol\",\"tasks\":[{\"type\":\"delay\",\"duration\":0.3}],\"transitions\":["
            + " {\"trigger\":\"onTick\",\"to\":\"Root/Alert\",\"conditions\":[{\"type\":\"compare\",\"param\":\"threat\",\"op\":\">\",\"value\":0.5}]},"
            + " {\"trigger\":\"onStateCompleted\",\"to\":\"@next\"}]},"
            + "{\"name\":\"Rest\",\"tasks\":[{\"type\":\"delay\",\"duration\":0.2}],\"transitions\":[{\"trigger\":\"onStateCompleted\",\"to\":\"Patrol\"}]},"
            + "{\"name\":\"Alert\",\"tasks\":[{\"type\":\"run\"}]}]}}";


    @Test
    void validateAcceptsAGoodTreeWithExitZero() throws Exception {
        assertEquals(0, Main.execute("validate", write("guard.json", GOOD).toString()));
        assertTrue(out().contains("OK: tree 'Guard', 4 states"), out());
    }

    @Test
    void validatePrintsEveryErrorAndExitsOne() throws Exception {
        String bad = GOOD.replace("\"Root/Alert\"", "\"Root/Alrt\"").replace("\"duration\":0.2", "\"duration\":\"soon\"")
                .replace("\"op\":\">\"", "\"op\":\"=>\"");
        Path p = write("bad.json", bad);
        assertEquals(1, Main.execute("validate", p.toString()));
        String o = out();
        assertTrue(o.contains("bad.json: state 'Root/Patrol': transitions[0].to: unknown target state path 'Root/Alrt'"), o);
        assertTrue(o.contains("state 'Root/Rest': tasks[0].duration"), o);
        assertTrue(o.contains("transitions[0].conditions[0].op"), o);
        assertTrue(o.contains("3 errors"), o);
    }

    @Test
    void validateReportsAMissingFileAsAUsageError() {
        assertEquals(2, Main.execute("validate", dir.resolve("nope.json").toString()));
        assertTrue(err().startsWith("error: ") && err().contains("nope.json: cannot read the file: it does not exist"),
                err());
    }

    @Test
    void dotPrintsAGraph() throws Exception {
        assertEquals(0, Main.execute("dot", write("guard.json", GOOD).toString()));
        String o = out();
        assertTrue(o.startsWith("digraph"), o);
        assertTrue(o.contains("Patrol") && o.contains("Alert") && o.trim().endsWith("}"), o);
    }

    @Test
    void traceRunsAScenarioOnBothRuntimesWithTheSameOutput() throws Exception {
        write("guard.json", GOOD);
        Path sc = write("scenario.json", "{\"tree\": \"guard.json\", \"dt\": 0.1, \"ticks\": 8, \"agents\": 2,"
                + " \"inputs\": [{\"tick\": 2, \"set\": {\"threat\": 0.9}, \"agent\": 1}, {\"tick\": 7, \"stop\": true}]}");
        assertEquals(0, Main.execute("trace", sc.toString()));
        String batched = out();
        out.reset();
        assertEquals(0, Main.execute("trace", "--runtime", "reference", sc.toString()));
        assertEquals(batched, out());
        assertTrue(batched.startsWith("a0 0 start\na0 0 enter Root changed\n"), batched);
        assertTrue(batched.contains("a1 2 transition Root/Patrol -> Root/Alert"), batched);
        assertTrue(batched.contains("a0 7 tree stopped"), batched);
    }

    @Test
    void traceExplainAddsAWhyLineAfterEachTransitionOnBothRuntimes() throws Exception {
        write("guard.json", GOOD);
        Path sc = write("scenario.json", "{\"tree\": \"guard.json\", \"dt\": 0.1, \"ticks\": 8, \"agents\": 2,"
                + " \"inputs\": [{\"tick\": 2, \"set\": {\"threat\": 0.9}, \"agent\": 1}]}");
        assertEquals(0, Main.execute("trace", sc.toString()));
        String plain = out();
        out.reset();
        assertEquals(0, Main.execute("trace", "--explain", sc.toString()));
        String batched = out();
        out.reset();
        assertEquals(0, Main.execute("trace", "--explain", "--runtime", "reference", sc.toString()));
        assertEquals(batched, out());
        assertTrue(batched.contains("a1 2 transition Root/Patrol -> Root/Alert\n"
                + "a1 2 why Root/Patrol transitions[0] onTick priority normal\n"), batched);
        assertTrue(batched.contains("a0 4 transition Root/Patrol -> Root/Rest\n"
                + "a0 4 why Root/Patrol transitions[1] onStateCompleted completed Root/Patrol succeeded priority normal\n"),
                batched);
        // without the why lines, the plain trace
        StringBuilder stripped = new StringBuilder();
        for (String line : batched.split("\n")) {
            if (!line.matches("a\\d+ \\d+ why .*")) {
                stripped.append(line).append('\n');
            }
        }
        assertEquals(plain, stripped.toString());
    }

    @Test
    void traceRejectsABadScenarioWithExitTwo() throws Exception {
        Path sc = write("scenario.json", "{\"tree\": \"guard.json\", \"tiks\": 8}");
        assertEquals(2, Main.execute("trace", sc.toString()));
        assertTrue(err().contains("tiks"), err());
    }

    @Test
    void aBadFlagPrintsUsageAndExitsTwo() {
        assertEquals(2, Main.execute("run", "--agnets", "10"));
        assertTrue(err().contains("--agnets") && err().contains("Usage:"), err());
        assertEquals(2, Main.execute("--agents", "ten"));
        assertEquals(2, Main.execute("run", "--agents", "0", "--quiet"));
        assertTrue(err().contains("agents = 0") && err().contains("1..16000000"), err());
    }

    @Test
    void onNodeErrorTakesFailOrIsolate() {
        assertEquals(2, Main.execute("run", "--agents", "10", "--ticks", "1", "--quiet", "--on-node-error", "ignore"));
        assertTrue(err().contains("--on-node-error = ignore") && err().contains("fail or isolate"), err());
        assertEquals(0, Main.execute("run", "--agents", "10", "--ticks", "1", "--quiet", "--on-node-error", "fail"));
    }

    @Test
    void runWithAnInvalidTreePrintsTheCompilerErrorsAndExitsTwo() throws Exception {
        Path p = write("bad.json", GOOD.replace("\"delay\"", "\"dealy\""));
        assertEquals(2, Main.execute("run", "--tree", p.toString(), "--agents", "10", "--ticks", "1"));
        assertTrue(err().contains("unknown task type \"dealy\""), err());
    }

    @Test
    void runPrintsASummaryWithTheWorldHashAndWritesFrames() throws Exception {
        Path frames = dir.resolve("frames");
        assertEquals(0, Main.execute("--agents", "3000", "--ticks", "20", "--workers", "2", "--png", frames.toString(),
                "--png-every", "10", "--quiet"));
        String o = out();
        assertTrue(o.contains("== summary ==") && o.contains("p99.9") && o.contains("statetree"), o);
        assertTrue(o.contains("Root/Peaceful/Wander"), o);
        assertTrue(o.matches("(?s).*awake in the statetree phase: mean \\d+\\.\\d% of 3,000 agents.*"), o);
        assertTrue(!o.contains("LOD bands"), "no LOD unless asked for");
        assertTrue(o.matches("(?s).*world hash: [0-9a-f]{16}.*"), o);
        assertTrue(o.contains("\npayload mismatches: 0\nworld hash: "), "the crowd tree declares no payload fields: " + o);
        List<Path> pngs;
        try (Stream<Path> s = Files.list(frames)) {
            pngs = s.sorted().collect(Collectors.toList());
        }
        assertEquals(3, pngs.size(), pngs.toString()); // ticks 0, 10, 20
        BufferedImage img = ImageIO.read(pngs.get(2).toFile());
        assertTrue(img.getWidth() > 900 && img.getHeight() >= 900);
    }

    @Test
    void runPrintsThePayloadMismatches() throws Exception {
        // Rule E5: the crowd tree with a Hit transition that declares an int 'strength', and a Wander
        // that sends itself a Hit with a float one on entering: every agent counts at least once.
        String tree = CrowdSim.embeddedTreeText()
                .replace("{\"trigger\": \"onEvent\", \"event\": \"Hit\", \"to\": \"Root/Danger/Flee\"}",
                        "{\"trigger\": \"onEvent\", \"event\": \"Hit\", \"to\": \"Root/Danger/Flee\", "
                                + "\"payloadFields\": {\"strength\": \"int\"}}")
                .replace("{\"type\": \"wander\",", "{\"type\": \"sendEvent\", \"tag\": \"Hit\", "
                        + "\"payload\": {\"strength\": 1.5}}, {\"type\": \"wander\",");
        assertTrue(tree.contains("payloadFields") && tree.contains("sendEvent"), "the crowd tree changed: adapt this test");
        Path p = write("crowd-payload.json", tree);
        assertEquals(0, Main.execute("run", "--tree", p.toString(), "--agents", "300", "--ticks", "5", "--workers", "2",
                "--quiet"));
        String o = out();
        Matcher total = Pattern.compile("\npayload mismatches: (\\d+)\n((?:  .*\n)*)world hash: ").matcher(o);
        assertTrue(total.find(), o);
        long n = Long.parseLong(total.group(1));
        assertTrue(n >= 300, o);
        long sum = 0;
        for (String line : total.group(2).split("\n")) {
            Matcher m = Pattern.compile("  (\\S+) (\\S+): (.+)  (\\d+)").matcher(line);
            assertTrue(m.matches(), line);
            assertEquals("Hit strength", m.group(1) + " " + m.group(2), line);
            assertTrue(m.group(3).equals("wrong type (sent float, declared int)") || m.group(3).equals("missing"), line);
            sum += Long.parseLong(m.group(4));
        }
        assertEquals(n, sum, o);
        assertTrue(o.contains("  Hit strength: wrong type (sent float, declared int)  "), o);
    }

    @Test
    void runWithLodPrintsTheBands() {
        assertEquals(0, Main.execute("--agents", "3000", "--ticks", "10", "--workers", "2", "--lod",
                "--observer", "500,700.5", "--quiet"));
        String o = out();
        assertTrue(o.contains("lod: tick periods by distance to the observer at (500, 700.5): period 1 within 100 m, "
                + "period 2 100-250 m, period 4 250-500 m, period 8 beyond 500 m"), o);
        assertTrue(o.contains("LOD bands at the end (observer at 500, 700.5):"), o);
        assertTrue(o.contains("period 8: beyond 500 m"), o);
        assertTrue(o.contains("awake in the statetree phase"), o);
    }

    @Test
    void theLodTableCountsTheAgentsOfEachBand() throws Exception {
        try (CrowdSim sim = CrowdLodTest.withRecorder(CrowdConfig.defaults().withAgents(4000).withWorkers(2))) {
            sim.tick();
            String table = RunCommand.lodTable(sim);
            String[] lines = table.split("\n");
            assertEquals(4, lines.length, table);
            int sum = 0;
            for (String line : lines) {
                assertTrue(line.matches("  period \\d+: .* +\\d+ +\\d+\\.\\d%"), line);
                sum += Integer.parseInt(line.substring(42, 52).strip());
            }
            assertEquals(4000, sum, table);
            assertTrue(lines[3].startsWith("  period 8: beyond 500 m"), table);
        }
    }

    @Test
    void aBadObserverExitsTwo() {
        assertEquals(2, Main.execute("run", "--observer", "3000,1", "--quiet"));
        assertTrue(err().contains("--observer = 3000,1 is not a point of the world; give X,Y in metres, each in 0..2000"),
                err());
        assertEquals(2, Main.execute("run", "--observer", "10", "--quiet"));
        assertEquals(2, Main.execute("run", "--observer", "a,b", "--quiet"));
    }

    @Test
    void runIsDeterministicAcrossWorkerCounts() throws Exception {
        Main.execute("--agents", "5000", "--ticks", "40", "--workers", "1", "--quiet");
        String one = hash(out());
        out.reset();
        Main.execute("--agents", "5000", "--ticks", "40", "--workers", "3", "--quiet");
        assertEquals(one, hash(out()));
    }

    private static String hash(String output) {
        int i = output.indexOf("world hash: ");
        return output.substring(i, i + 28);
    }
}
