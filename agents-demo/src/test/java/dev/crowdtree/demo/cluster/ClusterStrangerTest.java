package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import dev.crowdtree.demo.sim.CrowdConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, item 5: processes that know the cluster name but not the secret. A lite member without
 * the secret is challenged like a data member: the run does not start beside it, or stops at the tick
 * that finds it when it joins later, naming it; a lite member with the secret (another driver) is let
 * be. A cluster-wide shutdown, which Hazelcast's open-source edition lets any member make, is said in
 * one line by every member and by the driver, naming who asked for it.
 */
@Tag("cluster") // starts Hazelcast members: -DexcludedGroups=cluster leaves it out (the README), .ci/run runs it
class ClusterStrangerTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("a test secret of some length");
    private static final RunSpec SMALL = ClusterRunTest.crowdSpec("strangers", CrowdConfig.defaults().withAgents(5_000)
            .withSeed(3), 4);

    private static ClusterRun run(LocalCluster cluster, int ticks) {
        return new ClusterRun(cluster.driver(), SECRET, SMALL, new ClusterRun.Options(ticks, 10, -1, false), cluster::kill,
                new PrintStream(new ByteArrayOutputStream()));
    }

    @Test
    void aLiteMemberWithoutTheSecretKeepsARunFromStartingAndOneWithItIsLetBe() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, SECRET, "127.0.0.1")) {
            HazelcastInstance otherDriver = cluster.addLiteMember(SECRET);
            ClusterResult r = run(cluster, 20).run();
            assertEquals(SMALL.agents(), r.agents, "a run goes on beside a lite member that proves the secret");
            assertEquals(1, r.plan.size(), "and gives it no region");
            assertTrue(otherDriver.getLifecycleService().isRunning());

            long tasks = MemberNode.of(cluster.members().get(0)).worldTasks();
            HazelcastInstance stranger = cluster.addLiteMember(null);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(cluster, 20).run());
            String who = Handshake.describe(stranger.getCluster().getLocalMember());
            assertTrue(e.getMessage().startsWith("1 member of the cluster did not prove the secret (" + who
                    + " (a lite member)); a run does not go on while a member without the secret is in the cluster"),
                    e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
            assertEquals(tasks, MemberNode.of(cluster.members().get(0)).worldTasks(), "the refused run sent the member nothing");
        }
    }

    @Test
    void aLiteMemberWithoutTheSecretJoiningDuringTheRunStopsItAtTheNextTick() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, SECRET, "127.0.0.1")) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<ClusterResult> running = pool.submit(run(cluster, 1_000_000)::run);
                awaitTicking(cluster);
                HazelcastInstance stranger = cluster.addLiteMember(null);
                ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(120, TimeUnit.SECONDS));
                assertInstanceOf(IllegalStateException.class, e.getCause(), String.valueOf(e.getCause()));
                String who = Handshake.describe(stranger.getCluster().getLocalMember());
                assertTrue(e.getCause().getMessage().startsWith("1 member of the cluster did not prove the secret (" + who
                        + " (a lite member))"), e.getCause().getMessage());
                assertTrue(e.getCause().getMessage().endsWith("(joined during the run)"), e.getCause().getMessage());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** A process that knows only the cluster name shuts the cluster down: every member says why it stops, naming it. */
    @Test
    void aShutdownByAStrangerIsSaidInOneLineByEveryMember() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(2, SECRET, "127.0.0.1")) {
            List<MemberNode> nodes = new ArrayList<>();
            List<String> uuids = new ArrayList<>();
            for (HazelcastInstance m : cluster.members()) {
                nodes.add(MemberNode.of(m));
                uuids.add(m.getCluster().getLocalMember().getUuid().toString());
            }
            HazelcastInstance stranger = cluster.addLiteMember(null);
            String who = Handshake.describe(stranger.getCluster().getLocalMember());
            stranger.getCluster().shutdown();
            awaitStopped(cluster.members());
            for (int i = 0; i < nodes.size(); i++) {
                assertEquals("crowdtree member " + uuids.get(i) + ": the cluster was shut down by a cluster-wide shutdown "
                        + "request (Cluster.shutdown()) from " + who + "; Hazelcast's open-source edition lets any member of "
                        + "the cluster make one and cannot require the secret for it (docs/SCALE.md \"Security\"); this "
                        + "member stops", nodes.get(i).lastNotice());
            }
        }
    }

    /** A cluster-wide shutdown during a run: the run ends with the one line that says so, whatever failed first. */
    @Test
    void aRunStoppedByAClusterWideShutdownEndsWithOneLineSayingSo() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(2, SECRET, "127.0.0.1")) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<ClusterResult> running = pool.submit(run(cluster, 1_000_000)::run);
                awaitTicking(cluster);
                // any member may ask; one of the run's own, so that no newcomer's refusal comes first
                HazelcastInstance asker = cluster.members().get(1);
                String who = Handshake.describe(asker.getCluster().getLocalMember());
                MemberNode other = MemberNode.of(cluster.members().get(0));
                asker.getCluster().shutdown();
                ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(120, TimeUnit.SECONDS));
                assertInstanceOf(IllegalStateException.class, e.getCause(), String.valueOf(e.getCause()));
                assertEquals("the cluster was shut down by a cluster-wide shutdown request (Cluster.shutdown()) from " + who
                        + "; Hazelcast's open-source edition lets any member of the cluster make one and cannot require the "
                        + "secret for it (docs/SCALE.md \"Security\"); every member stopped, and the run with it",
                        e.getCause().getMessage());
                awaitStopped(cluster.members());
                assertTrue(other.lastNotice().endsWith("from " + who + "; Hazelcast's open-source edition lets any member "
                        + "of the cluster make one and cannot require the secret for it (docs/SCALE.md \"Security\"); this "
                        + "member stops"), other.lastNotice());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * A Hazelcast client that knows the cluster name sends Management Center's shutdown message (the
     * one way a client shuts a cluster down: its {@code Cluster.shutdown()} is unsupported): refused,
     * as the members trust no interface for Management Center's messages, and the member runs on.
     */
    @Test
    void aClientThatKnowsTheNameCannotShutTheClusterDownThroughManagementCenterMessages() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, SECRET, "127.0.0.1")) {
            HazelcastInstance member = cluster.members().get(0);
            com.hazelcast.client.config.ClientConfig config = new com.hazelcast.client.config.ClientConfig();
            config.setClusterName(cluster.name());
            config.getNetworkConfig().addAddress(Handshake.describe(member.getCluster().getLocalMember()));
            HazelcastInstance client = com.hazelcast.client.HazelcastClient.newHazelcastClient(config);
            try {
                // by reflection: Hazelcast's client internals name annotations that are not on the compile path
                Object impl = client.getClass().getField("client").get(client);
                Object request = Class.forName("com.hazelcast.client.impl.protocol.codec.MCShutdownClusterCodec")
                        .getMethod("encodeRequest").invoke(null);
                Class<?> invocation = Class.forName("com.hazelcast.client.impl.spi.impl.ClientInvocation");
                Object shutdown = invocation.getConstructor(
                        Class.forName("com.hazelcast.client.impl.clientside.HazelcastClientInstance"),
                        Class.forName("com.hazelcast.client.impl.protocol.ClientMessage"), Object.class)
                        .newInstance(impl, request, null);
                Future<?> sent = (Future<?>) invocation.getMethod("invoke").invoke(shutdown);
                ExecutionException e = assertThrows(ExecutionException.class, () -> sent.get(60, TimeUnit.SECONDS));
                assertEquals("AccessControlException", e.getCause().getClass().getSimpleName(), String.valueOf(e.getCause()));
                Thread.sleep(500);
                assertTrue(member.getLifecycleService().isRunning(), "the member runs on");
            } finally {
                client.getLifecycleService().terminate();
            }
        }
    }

    /** Waits (up to 60 s) until the run's first checkpoint after the setup's is in the map: it is ticking. */
    private static void awaitTicking(LocalCluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!cluster.driver().getMap(ClusterConfigs.CHECKPOINTS).containsKey(ClusterConfigs.checkpointKey(1, 10, 0))
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private static void awaitStopped(List<HazelcastInstance> members) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (HazelcastInstance m : members) {
            while (m.getLifecycleService().isRunning() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertFalse(m.getLifecycleService().isRunning(), "the member stopped");
        }
    }
}
