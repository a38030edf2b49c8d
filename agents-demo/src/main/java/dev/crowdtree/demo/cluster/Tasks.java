package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * The tasks the driver sends members through Hazelcast's executor. Every task but the handshake
 * carries a proof of the cluster secret ({@link ClusterSecret#taskProof}); a member checks it before
 * it touches world data.
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
        final byte[] proof;
        private transient HazelcastInstance hz;

        MemberTask(ClusterSecret secret, String kind, String runId, long tick) {
            this.kind = kind;
            this.runId = runId;
            this.tick = tick;
            this.proof = secret == null ? null : secret.taskProof(kind, runId, tick);
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
                node.secret.checkTask(kind, runId, tick, proof);
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
            super(null, "prove", "", 0);
            this.challenge = challenge;
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) {
            return node.secret.prove(challenge, hz.getCluster().getLocalMember().getUuid().toString());
        }
    }

    /** Build or restore the member's regions; answers an encoded {@link Wire.SetupAnswer}. */
    static final class Setup extends MemberTask<byte[]> {
        private static final long serialVersionUID = 1L;
        private final RunSpec spec;
        private final int[] regions;

        Setup(ClusterSecret secret, RunSpec spec, int[] regions, long restoreTick) {
            super(secret, "setup", spec.runId(), restoreTick);
            this.spec = spec;
            this.regions = regions;
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) throws Exception {
            return node.setup(spec, regions, tick).encode();
        }
    }

    /** Step the member's regions to {@code tick} ({@link MemberNode#step}); answers an encoded {@link Wire.StepAnswer}. */
    static final class Step extends MemberTask<byte[]> {
        private static final long serialVersionUID = 1L;
        private final boolean checkpoint;

        Step(ClusterSecret secret, String runId, long tick, boolean checkpoint) {
            super(secret, "step", runId, tick);
            this.checkpoint = checkpoint;
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) throws Exception {
            return node.step(tick, checkpoint).encode();
        }
    }

    /** The member's results ({@link MemberNode#finish}); answers an encoded {@link Wire.MemberResult}. */
    static final class Finish extends MemberTask<byte[]> {
        private static final long serialVersionUID = 1L;

        Finish(ClusterSecret secret, String runId) {
            super(secret, "finish", runId, 0);
        }

        @Override
        byte[] run(MemberNode node, HazelcastInstance hz) throws InterruptedException {
            return node.finish().encode();
        }
    }

    /** Testing ({@code --kill-member-at}): the member's JVM stops at once, as if the machine died. */
    static final class Halt extends MemberTask<Void> {
        private static final long serialVersionUID = 1L;

        Halt(ClusterSecret secret, String runId) {
            super(secret, "halt", runId, 0);
        }

        @Override
        Void run(MemberNode node, HazelcastInstance hz) {
            Runtime.getRuntime().halt(3);
            return null;
        }
    }
}
