package dev.crowdtree.demo.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of a crowd run across cluster members ({@code run}), as a picocli mixin; where the cluster is: {@link ClusterConnection}. */
public final class ClusterOptions {
    @Option(names = "--regions", paramLabel = "N",
            description = "Split the world into N regions (a grid of rectangles), each with its own agent table and "
                    + "StateTree runtime, run by cluster members (default 8 with --local-members or --cluster; "
                    + "without any of these the whole world runs as one table). 1..4096, as many as fit: a JVM "
                    + "holds at most 1000 regions and about 8 MB of heap each, and a run beyond what fits is refused "
                    + "before any region is built.")
    Integer regions;

    @Mixin
    ClusterConnection connection = new ClusterConnection();

    @Option(names = "--checkpoint-every", paramLabel = "K", defaultValue = "50",
            description = "Ticks between checkpoints of every region to the cluster (default: ${DEFAULT-VALUE}; 0: "
                    + "only the start).")
    int checkpointEvery;

    @Option(names = "--member-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "A member whose step has not answered within SECONDS, nor a ping within half as long "
                    + "(2 s at least), or while the others answered, is lost: it is fenced (the run goes on to a new "
                    + "generation without it, and nothing it writes afterwards is read), and its regions are restored "
                    + "on the others from the last complete checkpoint (default: ${DEFAULT-VALUE}; 0.5..3600). A member "
                    + "stopped or cut off for more than 5 s is removed by the cluster sooner. Building or restoring "
                    + "regions may take 6 times as long, 60 s at least.")
    double memberTimeout;

    /** Testing (the chaos harness): a line on stderr when this tick begins. */
    @Option(names = "--announce-tick", paramLabel = "TICK", hidden = true)
    Long announceTick;

    @Option(names = "--kill-member-at", paramLabel = "TICK",
            description = "Testing: stop one member abruptly before this tick (0: while the regions are built); its regions "
                    + "are restored on the others (set up again from the start, for 0).")
    Long killAt;

    /** Whether the run goes to regions (any of --regions, --local-members, --cluster). */
    boolean wanted() {
        return regions != null || connection.given();
    }

    /** @throws IllegalArgumentException naming the option and what is valid */
    void check(int ticks) {
        connection.check();
        if (checkpointEvery < 0) {
            throw new IllegalArgumentException("--checkpoint-every = " + checkpointEvery + " is out of range; valid range is "
                    + "0..2147483647");
        }
        if (!(memberTimeout >= 0.5 && memberTimeout <= 3600)) {
            throw new IllegalArgumentException("--member-timeout = " + memberTimeout + " is out of range; valid range is "
                    + "0.5..3600 (seconds)");
        }
        if (killAt != null && (killAt < 0 || killAt > ticks)) {
            throw new IllegalArgumentException("--kill-member-at = " + killAt + " is out of range; valid range is 0.." + ticks
                    + " (a tick of the run, or 0 for the setup)");
        }
        if (killAt != null && !connection.remote() && connection.members() < 2) {
            throw new IllegalArgumentException("--kill-member-at needs at least 2 members (give --local-members 2 or more)");
        }
    }

    long memberTimeoutMillis() {
        return Math.round(memberTimeout * 1000);
    }

    int regionCount() {
        return regions == null ? 8 : regions;
    }
}
