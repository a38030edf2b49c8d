package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.cluster.ClusterSecret;
import dev.crowdtree.demo.cluster.LocalCluster;
import dev.crowdtree.demo.cluster.RunSpec;
import dev.crowdtree.demo.cluster.Sweep;
import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.CrowdSetup;
import dev.crowdtree.demo.sim.CrowdSim;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sweep}, in process: the same rows (but for times and members) on 1 and 3 local members,
 * each hash that of the same crowd run alone; a member killed after 4 jobs and its jobs run again
 * on the others with the same hashes; scenario files; usage errors.
 */
@Tag("cluster") // starts Hazelcast members: -DexcludedGroups=cluster leaves it out (the README), .ci/run runs it
class SweepTest extends CliTestBase {
    private static final String HEADER = "job,agents,ticks,wall_ms,ns_per_agent_tick,world_hash,alarms,member";

    /** Runs {@code sweep --quiet --csv FILE args...}, checks that it exits with 0, and returns the CSV's rows (no header), split. */
    private List<String[]> sweep(String name, String... args) throws Exception {
        Path csv = dir.resolve(name + ".csv");
        List<String> all = new ArrayList<>(List.of("sweep", "--quiet", "--csv", csv.toString()));
        all.addAll(List.of(args));
        out.reset();
        err.reset();
        int code = Main.execute(all.toArray(new String[0]));
        assertEquals(0, code, "exit code; stderr: " + err() + "\nstdout: " + out());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(HEADER, lines.get(0));
        List<String[]> rows = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            String[] cells = l.split(",", -1);
            assertEquals(8, cells.length, l);
            rows.add(cells);
        }
        return rows;
    }

    /** Job, agents, ticks, world hash and alarms: the columns that do not depend on the machine. */
    private static List<String> deterministic(List<String[]> rows) {
        List<String> out = new ArrayList<>();
        for (String[] r : rows) {
            out.add(String.join(",", r[0], r[1], r[2], r[5], r[6]));
        }
        return out;
    }

    /** The world hash of the crowd run alone as {@code run} runs it (the crowd model's dt). */
    private static String hashAlone(int agents, long seed, int ticks) throws Exception {
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(CrowdConfig.defaults().withAgents(agents).withSeed(seed)
                .withDt(dev.crowdtree.demo.model.CrowdModel.DT).withWorkers(1)))) {
            for (int i = 0; i < ticks; i++) {
                sim.tick();
            }
            return String.format(Locale.ROOT, "%016x", sim.worldHash());
        }
    }

    @Test
    void oneAndThreeMembersGiveTheRowsOfTheRunsAlone() throws Exception {
        List<String[]> one = sweep("one", "--seeds", "1..12", "--agents", "2000", "--ticks", "30", "--local-members", "1");
        assertTrue(out().contains("sweep: 12 jobs on 1 member in "), out());
        assertTrue(out().contains("(0 re-run after a member loss)"), out());
        List<String[]> three = sweep("three", "--seeds", "1..12", "--agents", "2000", "--ticks", "30", "--local-members", "3");
        assertTrue(out().contains("sweep: 12 jobs on 3 members in "), out());
        assertEquals(deterministic(one), deterministic(three));
        assertEquals(12, one.size());
        for (int s = 1; s <= 12; s++) {
            String[] row = one.get(s - 1);
            assertEquals(Integer.toString(s), row[0], "rows in seed order");
            assertEquals("2000", row[1]);
            assertEquals("30", row[2]);
            assertEquals(hashAlone(2000, s, 30), row[5], "seed " + s);
        }
        // the same world as the run command's
        out.reset();
        assertEquals(0, Main.execute("run", "--agents", "2000", "--seed", "5", "--ticks", "30", "--quiet"));
        assertTrue(out().contains("world hash: " + one.get(4)[5]), out());
        assertTrue(three.stream().map(r -> r[7]).distinct().count() > 1, "3 members shared the jobs");
    }

    @Test
    void aMemberKilledAfterFourJobsHasItsJobsRunAgainWithTheSameHashes() throws Exception {
        List<String[]> killed = sweep("killed", "--seeds", "1..12", "--agents", "2000", "--ticks", "30",
                "--local-members", "3", "--kill-member-at-job", "4");
        assertTrue(err().contains("killing member"), err());
        assertTrue(out().matches("(?s).*re-ran \\d+ jobs? lost with member 127\\.0\\.0\\.1:\\d+\n.*"), out());
        assertTrue(out().matches("(?s).*sweep: 12 jobs on 3 members in [0-9.]+ s \\([1-9]\\d* re-run after a member loss\\)\n.*"),
                out());
        assertEquals(12, killed.size());
        for (int s = 1; s <= 12; s++) {
            assertEquals(Integer.toString(s), killed.get(s - 1)[0]);
            assertEquals(hashAlone(2000, s, 30), killed.get(s - 1)[5], "seed " + s);
        }
    }

    @Test
    void scenarioFilesAreOneJobEachNamedByTheFile() throws Exception {
        Path scenarios = Files.createDirectories(dir.resolve("scenarios"));
        Files.writeString(scenarios.resolve("b-dense.json"), "{\"agents\": 1500, \"seed\": 5, \"ticks\": 20}");
        Files.writeString(scenarios.resolve("a-default.json"), "{\"seed\": 7}");
        Files.writeString(scenarios.resolve("notes.txt"), "not a scenario");
        List<String[]> rows = sweep("scenarios", "--scenarios", scenarios.toString(), "--agents", "1000", "--ticks", "10",
                "--local-members", "2");
        assertEquals(2, rows.size());
        assertEquals(List.of("a-default.json,1000,10," + hashAlone(1000, 7, 10) + "," + rows.get(0)[6],
                "b-dense.json,1500,20," + hashAlone(1500, 5, 20) + "," + rows.get(1)[6]), deterministic(rows));

        Files.writeString(scenarios.resolve("c-bad.json"), "{\"agents\": \"many\"}");
        err.reset();
        assertEquals(2, Main.execute("sweep", "--scenarios", scenarios.toString()));
        String e = err().strip();
        assertEquals(1, e.lines().count(), e);
        assertTrue(e.startsWith("error: ") && e.contains("c-bad.json") && e.contains("'agents'") && e.contains("\"many\""), e);
    }

    @Test
    void aJobThatThrowsIsAFailedRowAndTheOthersRun() throws Exception {
        ClusterSecret secret = ClusterSecret.random();
        List<Sweep.Job> jobs = List.of(new Sweep.Job("good", 1000, 1, 5), new Sweep.Job("bad", 0, 2, 5),
                new Sweep.Job("also good", 1000, 3, 5));
        dev.crowdtree.demo.model.RunnableModel crowd = dev.crowdtree.demo.model.Models.builtIn().byDefault();
        RunSpec model = RunSpec.of("sweep", crowd.name(), crowd.fingerprint(),
                new dev.crowdtree.demo.sim.SimSettings(1, 0, 1, crowd.defaultDt()), crowd.defaultTree().name(),
                crowd.defaultTree().text().get(), 1);
        try (LocalCluster cluster = LocalCluster.start(2, secret, "127.0.0.1")) {
            Sweep.Result r = new Sweep(cluster.driver(), secret, jobs, model, new Sweep.Options(0, false), cluster::kill,
                    new PrintStream(new ByteArrayOutputStream())).run();
            assertEquals(1, r.failed);
            assertEquals(0, r.reruns);
            assertEquals(String.format(Locale.ROOT, "%016x", r.rows[0].worldHash()), hashAlone(1000, 1, 5));
            assertTrue(r.rows[1].failedRun() && r.rows[1].error().contains("agents"), String.valueOf(r.rows[1]));
            assertEquals("bad", r.rows[1].job());
            assertEquals(String.format(Locale.ROOT, "%016x", r.rows[2].worldHash()), hashAlone(1000, 3, 5));
        }
    }

    @Test
    void theTableGoesToStdoutAsMarkdownWhenNoFileIsGiven() {
        out.reset();
        assertEquals(0, Main.execute("sweep", "--quiet", "--seeds", "3..4", "--agents", "500", "--ticks", "5"));
        List<String> lines = out().lines().toList();
        assertEquals("| job | agents | ticks | wall_ms | ns_per_agent_tick | world_hash | alarms | member |", lines.get(0));
        assertTrue(lines.get(2).startsWith("| 3 | 500 | 5 | "), lines.get(2));
        assertTrue(lines.get(3).startsWith("| 4 | 500 | 5 | "), lines.get(3));
        assertTrue(lines.get(4).startsWith("sweep: 2 jobs on 1 member in "), lines.get(4));
    }

    @Test
    void usageErrorsExitWithTwoAndOneLine() {
        String[][] bad = {
                {"sweep", "--seeds", "5..1"},
                {"sweep", "--seeds", "x"},
                {"sweep", "--seeds", "1..1000001"},
                {"sweep", "--seeds", "-9223372036854775808..9223372036854775807"},
                {"sweep"},
                {"sweep", "--seeds", "1..3", "--scenarios", dir.toString()},
                {"sweep", "--seeds", "1..3", "--local-members", "2", "--cluster", "127.0.0.1:5701"},
                {"sweep", "--seeds", "1..3", "--kill-member-at-job", "1"},
                {"sweep", "--seeds", "1..3", "--local-members", "2", "--kill-member-at-job", "3"},
                {"sweep", "--seeds", "1..3", "--csv", dir.toString()},
                {"sweep", "--scenarios", dir.resolve("missing").toString()},
        };
        for (String[] args : bad) {
            err.reset();
            assertEquals(2, Main.execute(args), String.join(" ", args) + ": " + err());
            String e = err().strip();
            assertTrue(e.startsWith("error: ") && e.lines().count() == 1, String.join(" ", args) + ": " + e);
        }
        err.reset();
        Main.execute("sweep", "--seeds", "5..1");
        assertTrue(err().contains("--seeds = 5..1"), err());
    }
}
