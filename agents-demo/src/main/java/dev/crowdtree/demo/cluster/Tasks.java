package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serializable;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * The tasks the driver sends members through Hazelcast's executor. Every task but the handshake
 * carries a proof of the cluster secret ({@link ClusterSecret#taskProof}); a member checks it before
 * it touches world data. The tasks of a run carry its generation ({@code epoch}, 1 at the start, one
 * more at each recovery), covered by the proof: a member refuses a task of an older generation than
 * it has seen, and writes only under keys of its task's generation (docs/SCALE.md).
 */
final class Tasks {
    private Tasks() {
    }

    /** A task run on a member, with the member's {@link MemberNode}. */
    abstract static class MemberTask<T> implements Callable<T>, Serializable, HazelcastInstanceAware {
        private static final long serialVersionUID = 1L;
        final String kind;
        final String runId;
        final long tick;
        final long epoch;
        final byte[] proof;
        private transient HazelcastInstance hz;

        MemberTask(ClusterSecret secret, String kind, String runId, long epoch, long tick) {
            this.kind = kind;
            this.runId = runId;
            this.epoch = epoch;
            this.tick = tick;
            this.proof = secret == null ? null : secret.taskProof(kind, proved(runId, epoch), tick);
        }

        /** What the proof covers of the run: its id and the task's generation. */
        private static String proved(String runId, long epoch) {
            return runId + "#" + epoch;
        }

        @Override
        public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
            this.hz = hazelcastInstance;
        }

        @Override
        public T call() throws Exception {
            MemberNode node = MemberNode.of(hz);
            if (node == null) {
                throw new IllegalStateException("member " + hz.getCluster().getLocalMember().getUuid()
                        + " is not a crowdtree member");
            }
            if (proof != null || !(this instanceof Prove)) {
                node.secret.checkTask(kind, proved(runId, epoch), tick, proof);
            }
            return run(node, hz);
        }

        abstract T run(MemberNode node, HazelcastInstance hz) throws Exception;
    }

    /** The handshake: the member's answer to a challenge. */
    static final class Prove extends MemberTask<byte[]> {
        private static final long serialVersionUID = 1L;
        private final byte[] challenge;

        Prove(byte[] challenge) {
            super(null, "prove", "", 0, 0);
            this.challenge = challenge;
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) {
            return node.secret.prove(challenge, hz.getCluster().getLocalMember().getUuid().toString());
        }
    }

    /**
     * Whether the member can run the model of a run: its name and fingerprint, against the models the
     * member loaded ({@link ModelCatalog#find}); answers "" when it can, else why not (one line).
     */
    static final class CanRun extends MemberTask<String> {
        private static final long serialVersionUID = 1L;
        private final String model;
        private final String fingerprint;

        CanRun(ClusterSecret secret, String runId, String model, String fingerprint) {
            super(secret, "canrun", runId, 0, 0);
            this.model = model;
            this.fingerprint = fingerprint;
        }

        @Override
        String run(MemberNode node, HazelcastInstance hz) {
            try {
                node.catalog.find(model, fingerprint);
                return "";
            } catch (IllegalStateException e) {
                return e.getMessage();
            }
        }
    }

    /**
     * Build ({@code tick} -1) or restore (from the checkpoint of {@code tick} written in generation
     * {@code restoreEpoch}) the member's regions for generation {@code epoch} of the run, whose driver
     * is {@code driver} and whose steps are given {@code memberTimeoutNanos} each; answers an encoded
     * {@link Wire.SetupAnswer}.
     */
    static final class Setup extends MemberTask<byte[]> {
        private static final long serialVersionUID = 1L;
        private final RunSpec spec;
        private final int[] regions;
        private final long restoreEpoch;
        private final UUID driver;
        private final long memberTimeoutNanos;

        Setup(ClusterSecret secret, RunSpec spec, long epoch, UUID driver, long memberTimeoutNanos, int[] regions,
              long restoreTick, long restoreEpoch) {
            super(secret, "setup", spec.runId(), epoch, restoreTick);
            this.spec = spec;
            this.regions = regions;
            this.restoreEpoch = restoreEpoch;
            this.driver = driver;
            this.memberTimeoutNanos = memberTimeoutNanos;
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) throws Exception {
            return node.setup(spec, epoch, driver, memberTimeoutNanos, regions, tick, restoreEpoch).encode();
        }
    }

    /**
     * The run went on to generation {@code epoch} without this member (its step did not answer in
     * time, or it left): it drops its regions and writes nothing more for the run. Not waited for.
     */
    static final class Fence extends MemberTask<Void> {
        private static final long serialVersionUID = 1L;
        private final String why;

        Fence(ClusterSecret secret, String runId, long epoch, String why) {
            super(secret, "fence", runId, epoch, 0);
            this.why = why;
        }

        @Override
        Void run(MemberNode node, HazelcastInstance hz) {
            node.fence(runId, epoch, why);
            return null;
        }
    }

    /** Step the member's regions to {@code tick} ({@link MemberNode#step}); answers an encoded {@link Wire.StepAnswer}. */
    static final class Step extends MemberTask<byte[]> {
        private static final long serialVersionUID = 1L;
        private final boolean checkpoint;

        Step(ClusterSecret secret, String runId, long epoch, long tick, boolean checkpoint) {
            super(secret, "step", runId, epoch, tick);
            this.checkpoint = checkpoint;
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) throws Exception {
            return node.step(runId, epoch, tick, checkpoint).encode();
        }
    }

    /** The member's results ({@link MemberNode#finish}); answers an encoded {@link Wire.MemberResult}. */
    static final class Finish extends MemberTask<byte[]> {
        private static final long serialVersionUID = 1L;

        Finish(ClusterSecret secret, String runId, long epoch) {
            super(secret, "finish", runId, epoch, 0);
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) throws InterruptedException {
            return node.finish(runId, epoch).encode();
        }
    }

    /** Testing ({@code --kill-member-at}): the member's JVM stops at once, as if the machine died. */
    static final class Halt extends MemberTask<Void> {
        private static final long serialVersionUID = 1L;

        Halt(ClusterSecret secret, String runId) {
            super(secret, "halt", runId, 0, 0);
        }

        @Override
        Void run(MemberNode node, HazelcastInstance hz) {
            Runtime.getRuntime().halt(3);
            return null;
        }
    }
}
