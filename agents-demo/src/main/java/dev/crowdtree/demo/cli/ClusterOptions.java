package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.cluster.ClusterConfigs;
import dev.crowdtree.demo.cluster.ClusterSecret;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/** The options of a crowd run across cluster members ({@code run}), as a picocli mixin. */
public final class ClusterOptions {
    @Option(names = "--regions", paramLabel = "N",
            description = "Split the world into N regions (a grid of rectangles), each with its own agent table and "
                    + "StateTree runtime, run by cluster members (default 8 with --local-members or --cluster; "
                    + "without any of these the whole world runs as one table).")
    Integer regions;

    @Option(names = "--local-members", paramLabel = "M",
            description = "Start M cluster members in this JVM and run the regions on them (default 1 with --regions).")
    Integer localMembers;

    @Option(names = "--cluster", paramLabel = "HOST:PORT,...",
            description = "Run the regions on the cluster whose members listen at these addresses (started with "
                    + "'agents-demo member').")
    String cluster;

    @Option(names = "--cluster-name", paramLabel = "NAME",
            description = "The cluster's name (default: $" + ClusterConfigs.NAME_ENV + ", else '" + ClusterConfigs.DEFAULT_NAME + "').")
    String clusterName;

    @Option(names = "--secret", paramLabel = "TEXT",
            description = "The cluster's shared secret, 16 characters or more (default: $" + ClusterSecret.ENV + "; "
                    + "the environment keeps it out of the process list). Local members get a random one.")
    String secret;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "The interface this process's cluster member binds (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--checkpoint-every", paramLabel = "K", defaultValue = "50",
            description = "Ticks between checkpoints of every region to the cluster (default: ${DEFAULT-VALUE}; 0: "
                    + "only the start).")
    int checkpointEvery;

    @Option(names = "--kill-member-at", paramLabel = "TICK",
            description = "Testing: stop one member abruptly before this tick; its regions are restored on the others.")
    Long killAt;

    /** Whether the run goes to regions (any of --regions, --local-members, --cluster). */
    boolean wanted() {
        return regions != null || localMembers != null || cluster != null;
    }

    /** @throws IllegalArgumentException naming the option and what is valid */
    void check(int ticks) {
        if (localMembers != null && cluster != null) {
            throw new IllegalArgumentException("--local-members and --cluster cannot both be given: members start in this "
                    + "JVM, or the run goes to a cluster started with 'agents-demo member'");
        }
        if (localMembers != null && (localMembers < 1 || localMembers > 16)) {
            throw new IllegalArgumentException("--local-members = " + localMembers + " is out of range; valid range is 1..16");
        }
        if (checkpointEvery < 0) {
            throw new IllegalArgumentException("--checkpoint-every = " + checkpointEvery + " is out of range; valid range is "
                    + "0..2147483647");
        }
        if (killAt != null && (killAt < 1 || killAt > ticks)) {
            throw new IllegalArgumentException("--kill-member-at = " + killAt + " is out of range; valid range is 1.." + ticks
                    + " (a tick of the run)");
        }
        if (killAt != null && cluster == null && members() < 2) {
            throw new IllegalArgumentException("--kill-member-at needs at least 2 members (give --local-members 2 or more)");
        }
    }

    int regionCount() {
        return regions == null ? 8 : regions;
    }

    int members() {
        return localMembers == null ? 1 : localMembers;
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
            throw new IllegalArgumentException("--cluster = '" + cluster + "' names no member; give HOST:PORT,...");
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

    /** The secret: --secret, else the environment; required for --cluster, random for local members. */
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
}
