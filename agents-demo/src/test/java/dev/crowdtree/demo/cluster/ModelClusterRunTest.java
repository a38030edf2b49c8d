package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.Models;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.testing.NodeJars;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A declared model through the cluster: the embedding example's guards model (its jar, as
 * {@code mvn package} makes it) split into 4 regions and run by local members. The world hash is the
 * same on 1 and 3 members and is the whole world's ({@code run --model JAR}, and {@code --regions 1});
 * agents are conserved while guards cross region borders; a member that has not loaded the model,
 * or loaded other bytes of it, is refused by the handshake and the run does not start.
 *
 * <p>The settings: the intruder walks its route along the diagonal of the grounds at 5 m/s from a
 * point the seed picks; with a dt of 1 s and the seed {@link #SEED} (the first whose start point is
 * 250 to 600 m before the middle of the grounds, where the 4 regions meet) it reaches the middle
 * between ticks 50 and 120: the guards there (6,000 guards fill 60 rows of posts, up to y = 1180)
 * chase it across the borders and walk home again.
 */
@Tag("cluster") // starts Hazelcast members: -DexcludedGroups=cluster leaves it out (the README), .ci/run runs it
class ModelClusterRunTest {
    private static final int AGENTS = 6000;
    private static final int TICKS = 200;
    /** A seed whose intruder reaches the middle of the grounds early in the run (see the class comment). */
    private static final long SEED = seedReachingTheMiddle();
    private static final float DT = 1f;
    private static final int REGIONS = 4;
    private static final ClusterSecret SECRET = ClusterSecret.of("a test secret of some length");
    private static final Pattern HASH = Pattern.compile("world hash: ([0-9a-f]{16})");

    @TempDir
    static Path dir;
    static Path jar;
    static ModelChoice choice;
    static RunnableModel guards;

    @BeforeAll
    static void loadTheModel() throws Exception {
        jar = NodeJars.guardModelJar(dir);
        choice = Models.resolve(jar.toString(), List.of(), ModelClusterRunTest.class.getClassLoader());
        guards = choice.byDefault();
        assertEquals("guards", guards.name());
    }

    /**
     * The first seed from 1 whose intruder starts 250 to 600 m of its route before the middle of the
     * grounds (2 km: 100 posts 20 m apart); the route's start is {@code Intruder.walk}'s.
     */
    private static long seedReachingTheMiddle() {
        double grounds = 2000;
        double lap = grounds * Math.sqrt(2) + 40;
        double middle = (grounds / 2 + 20) * Math.sqrt(2); // path length from the route's start to (1000, 1000)
        for (long seed = 1; ; seed++) {
            double start = dev.crowdtree.core.random.CounterRng.uniformDouble(seed, 0, 0, 7, 0) * lap;
            double before = middle - start;
            if (before >= 250 && before <= 600) {
                return seed;
            }
        }
    }

    static RunSpec spec(String runId, int regions) {
        return RunSpec.of(runId, guards.name(), guards.fingerprint(), new SimSettings(AGENTS, SEED, 1, DT),
                guards.defaultTree().name(), guards.defaultTree().text().get(), regions);
    }

    static ClusterResult run(int members, ModelCatalog catalog, RunSpec spec) throws Exception {
        try (LocalCluster cluster = LocalCluster.start(members, SECRET, "127.0.0.1", catalog)) {
            return new ClusterRun(cluster.driver(), SECRET, spec, new ClusterRun.Options(TICKS, 50, -1, false),
                    cluster::kill, new PrintStream(new ByteArrayOutputStream())).run();
        }
    }

    @Test
    void theGuardsWorldHashIsTheSameOnOneAndThreeMembersAndIsTheWholeWorlds() throws Exception {
        ModelCatalog catalog = ModelCatalog.of(choice);
        ClusterResult one = run(1, catalog, spec("one", REGIONS));
        ClusterResult three = run(3, catalog, spec("three", REGIONS));
        assertEquals(1, one.plan.size());
        assertEquals(3, three.plan.size());
        assertEquals(one.worldHash, three.worldHash, "1 and 3 members");
        assertEquals(AGENTS, one.agents, "every guard is in a region or on its way to one");
        assertEquals(AGENTS, three.agents);
        assertTrue(one.haloBytes > 0, "guards near a border were seen by the neighbouring region");
        assertTrue(one.migrationBytes > 0, "guards chasing the intruder crossed region borders");
        assertEquals(one.migrationBytes, three.migrationBytes);
        assertEquals(0, one.droppedEvents);
        assertEquals(0, one.nodeFailures);

        String whole = cli("run", "--model", jar.toString(), "--agents", Integer.toString(AGENTS), "--ticks",
                Integer.toString(TICKS), "--dt", "1", "--seed", Long.toString(SEED), "--workers", "2", "--quiet");
        String oneRegion = cli("run", "--model", jar.toString(), "--agents", Integer.toString(AGENTS), "--ticks",
                Integer.toString(TICKS), "--dt", "1", "--seed", Long.toString(SEED), "--regions", "1", "--quiet");
        assertEquals(whole, oneRegion, "one region is the whole world");
        // the guards push each other apart only within 1.5 m, reading the halo for the other side of a
        // border: with these settings the 4 regions compute exactly the whole world too
        assertEquals(whole, String.format("%016x", one.worldHash), "4 regions and the whole world");
    }

    @Test
    void aMemberWithoutTheModelIsRefusedAndTheRunDoesNotStart() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, SECRET, "127.0.0.1", ModelCatalog.builtIn())) {
            ClusterRun run = new ClusterRun(cluster.driver(), SECRET, spec("lacking", REGIONS),
                    new ClusterRun.Options(TICKS, 50, -1, false), cluster::kill,
                    new PrintStream(new ByteArrayOutputStream()));
            IllegalStateException e = assertThrows(IllegalStateException.class, run::run);
            HazelcastInstance member = cluster.members().get(0);
            String address = Handshake.describe(member.getCluster().getLocalMember());
            assertEquals("member " + address + " cannot run model 'guards': it has no model 'guards' (it loaded crowd, "
                    + "plain); start it with the run's --model and --nodes; the run did not start", e.getMessage());
            assertEquals(0, MemberNode.of(member).worldTasks(), "nothing was built");
        }
    }

    @Test
    void aMemberThatLoadedOtherBytesOfTheModelIsRefusedNamingBothFingerprints() throws Exception {
        // the same model in a jar with one more file: other bytes, another fingerprint
        NodeJars.guardModelJar(Files.createDirectories(dir.resolve("other")));
        Files.writeString(dir.resolve("other/guard-model-classes/NOTES.txt"), "a rebuilt jar\n");
        Path rebuilt = NodeJars.jar(dir.resolve("other/guard-model-classes"), dir.resolve("other/rebuilt.jar"));
        RunnableModel theirs = Models.resolve(rebuilt.toString(), List.of(), getClass().getClassLoader()).byDefault();
        assertNotEquals(guards.fingerprint(), theirs.fingerprint());
        try (LocalCluster cluster = LocalCluster.start(1, SECRET, "127.0.0.1",
                ModelCatalog.of(Models.resolve(rebuilt.toString(), List.of(), getClass().getClassLoader())))) {
            ClusterRun run = new ClusterRun(cluster.driver(), SECRET, spec("rebuilt", REGIONS),
                    new ClusterRun.Options(TICKS, 50, -1, false), cluster::kill,
                    new PrintStream(new ByteArrayOutputStream()));
            IllegalStateException e = assertThrows(IllegalStateException.class, run::handshake);
            HazelcastInstance member = cluster.members().get(0);
            String address = Handshake.describe(member.getCluster().getLocalMember());
            assertEquals("member " + address + " cannot run model 'guards': it loaded model 'guards' (" + rebuilt
                    + ") with fingerprint " + theirs.fingerprint().substring(0, 12) + ", and the run's is "
                    + guards.fingerprint().substring(0, 12) + " (other bytes: start every member with the same --model "
                    + "and --nodes jars as the run); the run did not start", e.getMessage());
            assertEquals(0, MemberNode.of(member).worldTasks(), "nothing was built");
        }
    }

    /** The command line's world hash for {@code args} (a run with --quiet). */
    private static String cli(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = Main.execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
        Matcher m = HASH.matcher(o);
        assertTrue(m.find(), o);
        return m.group(1);
    }
}
