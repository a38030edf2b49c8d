package dev.crowdtree.demo.cli;

import com.hazelcast.core.HazelcastInstance;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.ClusterConfigs;
import dev.crowdtree.demo.cluster.ClusterRun;
import dev.crowdtree.demo.cluster.ClusterSecret;
import dev.crowdtree.demo.cluster.LocalCluster;
import dev.crowdtree.demo.cluster.ModelCatalog;
import dev.crowdtree.demo.cluster.MemberNode;
import dev.crowdtree.demo.http.HttpFront;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a command's cluster is ({@code run}, {@code sweep}), as a picocli mixin: members started in
 * this JVM ({@code --local-members}) or a cluster of {@code member} processes ({@code --cluster}),
 * its name and secret, and the interface this process binds; and the one way to join it.
 */
public final class ClusterConnection {
    @Option(names = "--local-members", paramLabel = "M",
            description = "Start M cluster members in this JVM and run on them (1..16; 1 when --cluster is not given).")
    Integer localMembers;

    @Option(names = "--cluster", paramLabel = "HOST:PORT,...",
            description = "Run on the cluster whose members listen at these addresses (started with 'agents-demo member').")
    String cluster;

    @Option(names = "--cluster-name", paramLabel = "NAME",
            description = "The cluster's name, with --cluster (default: $" + ClusterConfigs.NAME_ENV + ", else '"
                    + ClusterConfigs.DEFAULT_NAME + "').")
    String clusterName;

    @Option(names = "--secret", paramLabel = "TEXT",
            description = "The cluster's shared secret, 16 characters or more (default: $" + ClusterSecret.ENV + "; "
                    + "the environment keeps it out of the process list); required with --cluster. Local members get "
                    + "a random one.")
    String secret;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "The interface this process's cluster members bind (default: ${DEFAULT-VALUE}).")
    String bind;

    /** The cluster this process has joined: its lite member (the driver), and the local members if it started them. */
    public record Joined(HazelcastInstance driver, LocalCluster local, String name) implements AutoCloseable {
        /** How {@code --kill-member-at...} stops a member: terminate a local one, halt another JVM's. */
        public ClusterRun.Killer killer(ClusterSecret secret, String runId) {
            return local != null ? local::kill
                    : m -> driver.getExecutorService("crowdtree").submitToMember(MemberNode.haltTask(secret, runId), m);
        }

        @Override
        public void close() {
            if (local != null) {
                local.close();
            } else {
                driver.getLifecycleService().shutdown();
            }
        }
    }

    /** Whether --local-members or --cluster was given. */
    boolean given() {
        return localMembers != null || cluster != null;
    }

    /** @throws IllegalArgumentException naming the option and what is valid */
    void check() {
        if (localMembers != null && cluster != null) {
            throw new IllegalArgumentException("--local-members and --cluster cannot both be given: members start in this "
                    + "JVM, or the work goes to a cluster started with 'agents-demo member'");
        }
        if (localMembers != null && (localMembers < 1 || localMembers > 16)) {
            throw new IllegalArgumentException("--local-members = " + localMembers + " is out of range; valid range is 1..16");
        }
        if (cluster != null) {
            join();
        }
    }

    /** Members to start in this JVM (1 unless --local-members). */
    int members() {
        return localMembers == null ? 1 : localMembers;
    }

    boolean remote() {
        return cluster != null;
    }

    /** The addresses of --cluster. */
    List<String> join() {
        List<String> out = new ArrayList<>();
        for (String a : cluster.split(",")) {
            if (!a.isBlank()) {
                out.add(a.strip());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--cluster = '" + Printable.clean(cluster, 100) + "' names no member; give "
                    + "HOST:PORT,...");
        }
        return out;
    }

    String name() {
        if (clusterName != null) {
            return clusterName;
        }
        String env = System.getenv(ClusterConfigs.NAME_ENV);
        return env == null || env.isBlank() ? ClusterConfigs.DEFAULT_NAME : env;
    }

    /**
     * Checks {@code --bind} before any member starts.
     *
     * @throws IllegalArgumentException when it is not an address of this machine
     */
    void checkBind() {
        checkBind(bind);
    }

    /**
     * Checks that {@code bind} is an address of this machine (Hazelcast would say only that it
     * cannot bind, or that it finds no free port).
     *
     * @throws IllegalArgumentException naming it and what would be valid
     */
    static void checkBind(String bind) {
        InetAddress a;
        try {
            a = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind " + Printable.clean(bind, 100) + ": no such host; give an "
                    + "address of this machine, such as 127.0.0.1");
        }
        if (!HttpFront.isLocal(a)) {
            throw new IllegalArgumentException("--bind " + Printable.clean(bind, 100) + ": " + a.getHostAddress()
                    + " is not an address of this machine; give one of its addresses, such as 127.0.0.1 or the "
                    + "address of the interface the other members reach");
        }
    }

    /**
     * The secret: --secret, else the environment; required for --cluster, random for local members.
     *
     * @throws IllegalArgumentException when it is missing or too short
     */
    ClusterSecret secret() {
        String s = secret != null ? secret : System.getenv(ClusterSecret.ENV);
        if (s == null && cluster == null) {
            return ClusterSecret.random();
        }
        if (s == null) {
            throw new IllegalArgumentException("a cluster needs its shared secret: give --secret or set " + ClusterSecret.ENV);
        }
        return ClusterSecret.of(s);
    }

    /**
     * Joins the cluster: a lite member joining --cluster, or the local members (running the models of
     * {@code catalog}) and a lite member; the lite member holds {@code s} to prove it to other drivers.
     *
     * @throws RuntimeException when a member cannot start (a port or interface problem)
     */
    Joined join(ClusterSecret s, ModelCatalog catalog) {
        if (cluster != null) {
            return new Joined(ClusterConfigs.start(ClusterConfigs.member(name(), bind, 5701, join(), true), s, catalog),
                    null, name());
        }
        LocalCluster local = LocalCluster.start(members(), s, bind, catalog);
        return new Joined(local.driver(), local, local.name());
    }
}
