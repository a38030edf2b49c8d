package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster from the command line: three {@code member} processes (separate JVMs on 127.0.0.1)
 * run 8 regions of 50,000 agents for 300 ticks, with one of them killed at tick 150 and a fourth in
 * the cluster without the secret (the run refused, naming it, until it is gone), and give the world hash of
 * {@code run --local-members 1}; and the option checks.
 */
@Tag("cluster") // starts Hazelcast members: -DexcludedGroups=cluster leaves it out (the README), .ci/run runs it
class ClusterCliTest extends CliTestBase {
    private static final String SECRET = "a secret shared by the test's members";
    private static final String[] WORLD = {"--regions", "8", "--agents", "50000", "--ticks", "300", "--seed", "5", "--quiet"};

    private static String hash(String output) {
        Matcher m = Pattern.compile("world hash: ([0-9a-f]{16})").matcher(output);
        assertTrue(m.find(), output);
        return m.group(1);
    }

    private String run(String... args) {
        out.reset();
        err.reset();
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(WORLD));
        all.addAll(List.of(args));
        assertEquals(0, Main.execute(all.toArray(new String[0])), err());
        return out();
    }

    /**
     * {@link #run}, retried for up to 30 s while the cluster still holds a member that was just
     * stopped (it is seen gone once its connections close or its heartbeats stop).
     */
    private String runOnceTheClusterSettles(String... args) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            out.reset();
            err.reset();
            List<String> all = new ArrayList<>(List.of("run"));
            all.addAll(List.of(WORLD));
            all.addAll(List.of(args));
            int code = Main.execute(all.toArray(new String[0]));
            if (code == 0) {
                return out();
            }
            assertTrue(err().contains("did not prove the secret") && System.nanoTime() < deadline, err());
            Thread.sleep(500);
        }
    }

    @Test
    void threeMemberProcessesOneKilledAndOneWithoutTheSecretGiveTheHashOfOneLocalMember() throws Exception {
        String local = hash(run("--local-members", "1"));
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = Math.min(s.getLocalPort(), 60_000);
        }
        String name = "crowdtree-test-" + port;
        String join = "127.0.0.1:" + port + ",127.0.0.1:" + (port + 1) + ",127.0.0.1:" + (port + 2) + ",127.0.0.1:" + (port + 3);
        List<Process> members = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                // the fourth knows the cluster's name and address but not its secret
                startMember(members, i, port, join, name, i < 3 ? SECRET : "a guess at the secret, wrong");
            }
            // with the fourth in the cluster, the run does not start, and says which member lacks the secret
            out.reset();
            err.reset();
            List<String> refusedRun = new ArrayList<>(List.of("run"));
            refusedRun.addAll(List.of(WORLD));
            refusedRun.addAll(List.of("--cluster", join, "--cluster-name", name, "--secret", SECRET));
            assertEquals(1, Main.execute(refusedRun.toArray(new String[0])), err());
            assertTrue(Pattern.compile("error: the cluster run failed: 1 member of the cluster did not prove the secret "
                    + "\\(127\\.0\\.0\\.1:\\d+\\); a run does not go on while a member without the secret is in the cluster")
                    .matcher(err()).find(), err());
            assertFalse(out().contains("regions"), "no plan, no region: " + out());
            Process rogue = members.get(3);
            rogue.destroyForcibly();
            rogue.waitFor(10, TimeUnit.SECONDS);
            String output = runOnceTheClusterSettles("--cluster", join, "--cluster-name", name, "--secret", SECRET,
                    "--kill-member-at", "150");
            assertTrue(output.contains("on 3 members"), output);
            assertTrue(output.contains("3 members proved the secret, 0 refused"), output);
            assertTrue(output.contains("left during tick 150"), output);
            assertTrue(output.contains("restored from the checkpoint of tick 100 on 2 members"), output);
            assertEquals(local, hash(output), "separate JVMs, a member lost, the same world");
        } finally {
            for (Process p : members) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Sends {@code signal} to {@code p} with kill(1). */
    private static void signal(Process p, String signal) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor());
    }

    /**
     * Issue 23, item 2: a member process stopped (SIGSTOP) for 8 s, past the member timeout of 2 s
     * and past the cluster's 5 s heartbeat timeout, during a run of three: the run is recovered on the
     * two others with the undisturbed hash and nothing the stopped member wrote after its fence in the
     * maps, and no stack trace; the woken member says it was fenced, merges back into the cluster, and
     * the next run given the three addresses runs on all three.
     */
    @Test
    void aMemberStoppedPastTheMemberTimeoutIsFencedAndRejoinsAndTheRunGivesTheUndisturbedHash() throws Exception {
        String[] world = {"--regions", "6", "--agents", "20000", "--ticks", "200", "--seed", "5", "--quiet"};
        List<String> localRun = new ArrayList<>(List.of("run", "--local-members", "1"));
        localRun.addAll(List.of(world));
        assertEquals(0, Main.execute(localRun.toArray(new String[0])), err());
        String local = hash(out());
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = Math.min(s.getLocalPort(), 60_000);
        }
        String name = "crowdtree-stop-" + port;
        String join = "127.0.0.1:" + port + ",127.0.0.1:" + (port + 1) + ",127.0.0.1:" + (port + 2);
        List<Process> members = new ArrayList<>();
        StringBuffer stoppedSaid = new StringBuffer();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 3; i++) {
                BufferedReader r = startMember(members, i, port + i, join, name, SECRET);
                if (i == 2) {
                    Thread t = new Thread(() -> r.lines().forEach(l -> stoppedSaid.append(l).append('\n')));
                    t.setDaemon(true);
                    t.start();
                }
            }
            out.reset();
            err.reset();
            List<String> args = new ArrayList<>(List.of("run"));
            args.addAll(List.of(world));
            args.addAll(List.of("--cluster", join, "--cluster-name", name, "--secret", SECRET, "--member-timeout", "2",
                    "--announce-tick", "70"));
            Future<Integer> run = pool.submit(() -> Main.execute(args.toArray(new String[0])));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!err().contains("crowdtree: tick 70 begins") && System.nanoTime() < deadline && !run.isDone()) {
                Thread.sleep(10);
            }
            Process stopped = members.get(2);
            signal(stopped, "STOP");
            Thread.sleep(8_000);
            signal(stopped, "CONT");
            assertEquals(0, run.get(120, TimeUnit.SECONDS), err());
            String output = out();
            assertTrue(output.contains("did not answer within the member timeout of 2.0 s nor a ping within 2.0 s and was fenced")
                    || output.contains(" left during tick "), output);
            assertTrue(output.contains("restored from the checkpoint of tick 50 on 2 members"), output);
            assertTrue(output.contains("entries written by fenced members after their fence: 0"), output);
            assertEquals(local, hash(output), "the undisturbed world");
            assertFalse(err().contains("\tat "), "no stack trace: " + err());
            // the woken member: fenced, and back in the cluster
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!stoppedSaid.toString().contains("rejoined cluster") && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            String said = stoppedSaid.toString();
            assertTrue(said.contains("fenced"), said);
            assertTrue(said.contains("rejoined cluster '" + name + "'"), said);
            assertFalse(said.contains("\tat "), "no stack trace: " + said);
            out.reset();
            err.reset();
            assertEquals(0, Main.execute("run", "--regions", "6", "--agents", "20000", "--ticks", "20", "--quiet",
                    "--cluster", join, "--cluster-name", name, "--secret", SECRET), err());
            assertTrue(out().contains("3 members proved the secret, 0 refused"), out());
        } finally {
            pool.shutdownNow();
            for (Process p : members) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void clusterOptionsAreChecked() {
        assertEquals(2, Main.execute("run", "--local-members", "2", "--cluster", "127.0.0.1:5701"));
        assertTrue(err().contains("error: --local-members and --cluster cannot both be given"), err());
        err.reset();
        assertEquals(2, Main.execute("run", "--local-members", "1", "--kill-member-at", "3", "--ticks", "10"));
        assertTrue(err().contains("--kill-member-at needs at least 2 members"), err());
        err.reset();
        assertEquals(2, Main.execute("run", "--regions", "0"));
        assertTrue(err().contains("regions = 0 is out of range"), err());
        err.reset();
        assertEquals(2, Main.execute("run", "--cluster", "127.0.0.1:5701", "--secret", "short"));
        assertTrue(err().contains("at least 16 characters"), err());
        err.reset();
        assertEquals(2, Main.execute("run", "--regions", "4", "--lod"));
        assertTrue(err().contains("--lod cannot be given with --regions"), err());
        err.reset();
        assertEquals(2, Main.execute("run", "--local-members", "2", "--member-timeout", "0.1"));
        assertTrue(err().contains("--member-timeout = 0.1 is out of range"), err());
        err.reset();
        assertEquals(2, Main.execute("member", "--secret", "short"));
        assertTrue(err().contains("at least 16 characters"), err());
        // issue 34: an address not of this machine was "cannot find a free port" (exit 1)
        String notOurs = "error: --bind 192.0.2.1: 192.0.2.1 is not an address of this machine; give one of its addresses";
        for (String[] args : new String[][] {
                {"run", "--local-members", "1", "--bind", "192.0.2.1", "--ticks", "1"},
                {"member", "--secret", "0123456789abcdef0123", "--bind", "192.0.2.1"},
                {"sweep", "--seeds", "1..2", "--local-members", "1", "--bind", "192.0.2.1"}}) {
            err.reset();
            assertEquals(2, Main.execute(args), String.join(" ", args));
            assertTrue(err().startsWith(notOurs), err());
        }
    }

    /**
     * Starts member process {@code i} ({@code member --port port --join join --cluster-name name}) with
     * {@code secret} in its environment, adds it to {@code members} and waits for its first line
     * ("crowdtree member ..."); returns the reader of the rest of its output.
     */
    private static BufferedReader startMember(List<Process> members, int i, int port, String join, String name,
                                              String secret) throws java.io.IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "member", "--port", Integer.toString(port), "--join", join, "--cluster-name", name);
        pb.environment().put("CROWDTREE_CLUSTER_SECRET", secret);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        members.add(p);
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        assertTrue(line != null && line.startsWith("crowdtree member "), "member " + i + " said: " + line);
        return r;
    }
}
