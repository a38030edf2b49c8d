package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.RegionalSim;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One job of a {@link Sweep}, run on a member: a whole run of the sweep's model of its own (one worker
 * thread) with the job's agents and seed, for the job's ticks. The model is found among those the
 * member loaded by its name and fingerprint ({@link ModelCatalog}); the tree is the text shipped with
 * the task (the driver compiled it before the sweep started, so it compiles here too; linked assets
 * are not shipped). Like every task but the handshake it carries a proof of the cluster secret over its
 * contents (the job and the model), which the member checks first.
 */
final class SweepJob extends Tasks.MemberTask<SweepRow> {
    private static final long serialVersionUID = 1L;
    static final String KIND = "sweep";

    private final Sweep.Job job;
    /** The model, its tree and dt. */
    private final RunSpec model;

    /**
     * @param runId the sweep's id and the job's index, which the proof covers
     * @param model the model, its tree and dt (its agents and seed are the job's)
     */
    SweepJob(ClusterSecret secret, String runId, Sweep.Job job, RunSpec model) {
        super(KIND, runId, 0, 0);
        this.job = job;
        this.model = model;
        prove(secret);
    }

    @Override
    Tasks.Payload payload() {
        return out -> {
            Tasks.string(out, job.name());
            out.writeInt(job.agents());
            out.writeLong(job.seed());
            out.writeInt(job.ticks());
            model.writeTo(out);
        };
    }

    @Override
    SweepRow run(MemberNode node, HazelcastInstance hz) throws Exception {
        RunnableModel m = node.catalog.find(model.model(), model.fingerprint());
        CompiledStateTree tree = m.compileText(model.treeName(), model.treeText());
        SimSettings settings = new SimSettings(job.agents(), job.seed(), 1, model.dt());
        try (Simulation sim = m.open(settings, tree, null, null, null)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < job.ticks(); i++) {
                sim.tick();
            }
            long nanos = System.nanoTime() - t0;
            long[] counters = sim instanceof RegionalSim ? ((RegionalSim) sim).counters() : new long[0];
            return new SweepRow(job.name(), job.agents(), job.ticks(), nanos, sim.worldHash(),
                    counters.length > 0 ? counters[0] : -1, sim.runningAgents(),
                    Handshake.describe(hz.getCluster().getLocalMember()), null);
        }
    }
}
