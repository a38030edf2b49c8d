package dev.crowdtree.demo.cli;

import com.hazelcast.core.HazelcastInstance;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.BoundSockets;
import dev.crowdtree.demo.cluster.ClusterConfigs;
import dev.crowdtree.demo.cluster.ClusterSecret;
import dev.crowdtree.demo.cluster.ModelCatalog;
import dev.crowdtree.statetree.model.ModelException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code member}: a cluster member that runs the regions a {@code run --cluster} gives it, until the
 * process is stopped. It binds one interface (127.0.0.1 unless {@code --bind}) and joins the members
 * {@code --join} names over TCP; it proves the shared secret to a run's driver before it is given
 * regions (docs/SCALE.md).
 */
@Command(name = "member", mixinStandardHelpOptions = true,
        description = "Start a cluster member that runs regions of a model (the crowd, or yours with --model/--nodes: "
                + "every member loads the run's jars) for 'run --cluster' and sweeps (until stopped).")
public final class MemberCommand implements Callable<Integer> {
    @Option(names = "--join", paramLabel = "HOST:PORT,...",
            description = "Members to join (default: none; this member starts a cluster).")
    String join;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "The interface to bind (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--port", defaultValue = "5701",
            description = "The first port to try; the next 99 are tried after it (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--cluster-name", paramLabel = "NAME",
            description = "The cluster's name (default: $" + ClusterConfigs.NAME_ENV + ", else '" + ClusterConfigs.DEFAULT_NAME + "').")
    String clusterName;

    @Option(names = "--secret", paramLabel = "TEXT",
            description = "The shared secret, 16 characters or more (default: $" + ClusterSecret.ENV + ").")
    String secret;

    @Mixin
    ModelOptions models;

    /** Testing (the chaos harness): start the member only when a line comes on stdin (its JVM is warm by then). */
    @Option(names = "--start-on-input", hidden = true)
    boolean startOnInput;

    @Override
    public Integer call() throws InterruptedException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ClusterSecret s;
        List<String> members = new ArrayList<>();
        String name;
        ModelCatalog catalog;
        try {
            catalog = ModelCatalog.of(models.choice());
        } catch (ModelException e) {
            return Problems.usage(err, e.getMessage());
        }
        try {
            String text = secret != null ? secret : System.getenv(ClusterSecret.ENV);
            if (text == null) {
                throw new IllegalArgumentException("a member needs the cluster's shared secret: give --secret or set "
                        + ClusterSecret.ENV);
            }
            s = ClusterSecret.of(text);
            ClusterConnection.checkBind(bind);
            if (port < 1 || port > 65_435) {
                throw new IllegalArgumentException("--port = " + port + " is out of range; valid range is 1..65435");
            }
            if (join != null) {
                for (String a : join.split(",")) {
                    if (!a.isBlank()) {
                        members.add(a.strip());
                    }
                }
            }
            String env = System.getenv(ClusterConfigs.NAME_ENV);
            name = clusterName != null ? clusterName : env == null || env.isBlank() ? ClusterConfigs.DEFAULT_NAME : env;
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        }
        if (startOnInput) {
            try {
                new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))
                        .readLine();
            } catch (java.io.IOException e) {
                return 1;
            }
        }
        HazelcastInstance hz;
        try {
            hz = ClusterConfigs.start(ClusterConfigs.member(name, bind, port, members, false), s, catalog);
        } catch (RuntimeException e) {
            err.println(Problems.line("cannot start the member on " + bind + ": " + e.getMessage()));
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        hz.getLifecycleService().addLifecycleListener(e -> {
            if (e.getState() == com.hazelcast.core.LifecycleEvent.LifecycleState.SHUTDOWN) {
                stopped.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> hz.getLifecycleService().terminate()));
        String bound;
        try {
            bound = BoundSockets.describe(hz); // from the sockets, not the announced address
        } catch (IllegalStateException e) {
            var a = hz.getCluster().getLocalMember().getAddress();
            bound = a.getHost() + ":" + a.getPort() + " (announced; " + e.getMessage() + ")";
        }
        out.println(Printable.escape(String.format("crowdtree member %s listening on %s, cluster '%s', %d members, "
                        + "models %s; waiting for runs (stop with Ctrl-C)", hz.getCluster().getLocalMember().getUuid(), bound,
                name, hz.getCluster().getMembers().size(), catalog.describe())));
        out.flush();
        stopped.await();
        return 0;
    }
}
