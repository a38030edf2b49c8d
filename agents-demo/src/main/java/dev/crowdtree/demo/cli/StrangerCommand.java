package dev.crowdtree.demo.cli;

import com.hazelcast.core.HazelcastInstance;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.ClusterConfigs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code stranger} (hidden; the chaos harness's faults {@code lite-member} and {@code shutdown}): a
 * process that knows the cluster's name and addresses but not its secret. It joins as a Hazelcast
 * lite member, holding nothing to prove the secret with, and then stays until it is stopped, or with
 * {@code --shutdown} calls {@code Cluster.shutdown()} (again while it fails, for up to 20 s) and exits. docs/SCALE.md "Security" says what
 * the members and a run do about each.
 */
@Command(name = "stranger", hidden = true, mixinStandardHelpOptions = true,
        description = "Testing: join a cluster as a lite member without its secret; stay, or shut the cluster down.")
public final class StrangerCommand implements Callable<Integer> {
    @Option(names = "--join", paramLabel = "HOST:PORT,...", required = true, description = "Members to join.")
    String join;

    @Option(names = "--cluster-name", paramLabel = "NAME", defaultValue = ClusterConfigs.DEFAULT_NAME,
            description = "The cluster's name (default: ${DEFAULT-VALUE}).")
    String clusterName;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "The interface to bind (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--port", defaultValue = "5701",
            description = "The first port to try; the next 99 are tried after it (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--shutdown", description = "Once joined, call Cluster.shutdown() and exit.")
    boolean shutdown;

    @Option(names = "--start-on-input", description = "Join only when a line comes on stdin (the JVM is warm by then).")
    boolean startOnInput;

    @Override
    public Integer call() throws InterruptedException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        List<String> members = new ArrayList<>();
        for (String a : join.split(",")) {
            if (!a.isBlank()) {
                members.add(a.strip());
            }
        }
        if (members.isEmpty() || port < 1 || port > 65_435) {
            return Problems.usage(err, "--join must name members (HOST:PORT,...) and --port be in 1..65435; got --join '"
                    + Printable.clean(join, 100) + "', --port " + port);
        }
        if (startOnInput) {
            try {
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            } catch (IOException e) {
                return 1;
            }
        }
        HazelcastInstance hz;
        try {
            // no secret: the lite member has nothing to answer a driver's challenge with
            hz = ClusterConfigs.start(ClusterConfigs.member(clusterName, bind, port, members, true), null, null);
        } catch (RuntimeException e) {
            err.println(Problems.line("the stranger could not join cluster '" + clusterName + "': " + e.getMessage()));
            return 1;
        }
        var a = hz.getCluster().getLocalMember().getAddress();
        out.println(Printable.escape(String.format(java.util.Locale.ROOT, "crowdtree stranger %s joined cluster '%s' as a lite member at %s:%d, "
                + "without the secret", hz.getCluster().getLocalMember().getUuid(), clusterName, a.getHost(), a.getPort())));
        out.flush();
        if (shutdown) {
            // as a determined stranger would: a cluster state change right after a join may be refused
            // while the member list or partition table settles, so it tries again, for up to 20 s
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            for (int attempt = 1; ; attempt++) {
                out.println("crowdtree stranger: calling Cluster.shutdown() (attempt " + attempt + ")");
                out.flush();
                try {
                    hz.getCluster().shutdown();
                    return 0;
                } catch (RuntimeException e) {
                    err.println(Problems.line("Cluster.shutdown() failed: " + e.getMessage()));
                    if (!hz.getLifecycleService().isRunning() || System.nanoTime() > deadline) {
                        hz.getLifecycleService().terminate();
                        return 1;
                    }
                    Thread.sleep(250);
                }
            }
        }
        CountDownLatch stopped = new CountDownLatch(1);
        hz.getLifecycleService().addLifecycleListener(e -> {
            if (e.getState() == com.hazelcast.core.LifecycleEvent.LifecycleState.SHUTDOWN) {
                stopped.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> hz.getLifecycleService().terminate()));
        stopped.await();
        return 0;
    }
}
