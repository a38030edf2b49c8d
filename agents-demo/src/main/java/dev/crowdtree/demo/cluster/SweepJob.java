package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.CrowdSetup;
import dev.crowdtree.demo.sim.CrowdSim;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One job of a {@link Sweep}, run on a member: a whole crowd run of its own (one worker thread), from
 * the default configuration with the job's agents and seed, for the job's ticks. The tree is the
 * embedded one, or the text of the sweep's {@code --tree} shipped with the task and written to a
 * temporary file on the member for the run (the driver compiled it before the sweep started, so it
 * compiles here too; linked assets are not shipped). Like every task but the handshake it carries a
 * proof of the cluster secret, which the member checks first.
 */
final class SweepJob extends Tasks.MemberTask<SweepRow> {
    private static final long serialVersionUID = 1L;
    static final String KIND = "sweep";

    private final Sweep.Job job;
    /** The tree asset's text, or null for the embedded tree. */
    private final String treeText;

    /**
     * @param runId    the sweep's id and the job's index, which the proof covers
     * @param treeText the tree asset's text, or null for the embedded tree
     */
    SweepJob(ClusterSecret secret, String runId, Sweep.Job job, String treeText) {
        super(secret, KIND, runId, 0, 0);
        this.job = job;
        this.treeText = treeText;
    }

    @Override
    SweepRow run(MemberNode node, HazelcastInstance hz) throws Exception {
        CrowdConfig config = CrowdConfig.defaults().withAgents(job.agents()).withSeed(job.seed()).withWorkers(1);
        Path treeFile = null;
        try {
            if (treeText != null) {
                treeFile = Files.createTempFile("crowdtree-sweep-", ".json");
                Files.writeString(treeFile, treeText, StandardCharsets.UTF_8);
            }
            try (CrowdSim sim = new CrowdSim(CrowdSetup.of(config).tree(treeFile))) {
                long t0 = System.nanoTime();
                for (int i = 0; i < job.ticks(); i++) {
                    sim.tick();
                }
                long nanos = System.nanoTime() - t0;
                return new SweepRow(job.name(), job.agents(), job.ticks(), nanos, sim.worldHash(), sim.alarms(),
                        sim.runningAgents(), Handshake.describe(hz.getCluster().getLocalMember()), null);
            }
        } finally {
            if (treeFile != null) {
                Files.deleteIfExists(treeFile);
            }
        }
    }
}
