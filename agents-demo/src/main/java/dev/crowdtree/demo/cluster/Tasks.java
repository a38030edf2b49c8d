package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * The tasks the driver sends members through Hazelcast's executor. Every task but the handshake's
 * {@link Prove} carries a proof of the cluster secret over all of its contents
 * ({@link MemberTask#canonical}: its class, kind, run, generation and tick and the fields that say
 * what it does), under a key of its own ({@link ClusterSecret#taskProof}); a member checks it before
 * it touches world data, so a proof copied from one task does not pass on another, nor on the same
 * task with a field changed. Every task carries the {@link Wire#VERSION} of the build that made it,
 * checked first. The tasks of a run carry its generation ({@code epoch}, 1 at the start, one more at
 * each recovery): a member refuses a task of an older generation than it has seen, and writes only
 * under keys of its task's generation (docs/SCALE.md).
 */
final class Tasks {
    /** The user-context key of a member's (or a driver's) {@link ClusterSecret}, which {@link Prove} answers with. */
    static final String SECRET_KEY = "crowdtree.secret";

    private Tasks() {
    }

    /**
     * @throws IllegalStateException when {@code version} is not this build's {@link Wire#VERSION}
     */
    static void checkVersion(String what, int version) {
        if (version != Wire.VERSION) {
            throw new IllegalStateException("a " + what + " task of wire version " + version + " was refused: this build "
                    + "reads " + Wire.VERSION + " (the driver and the members must run the same build)");
        }
    }

    /** Writes the fields of a task's canonical bytes ({@link MemberTask#canonical}). */
    @FunctionalInterface
    interface Payload {
        void write(DataOutputStream out) throws IOException;
    }

    /** {@code s} as its UTF-8 length and bytes ("" for null is not the same: null is length -1). */
    static void string(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** {@code v} as its length and values (null is length -1). */
    static void ints(DataOutputStream out, int[] v) throws IOException {
        out.writeInt(v == null ? -1 : v.length);
        if (v != null) {
            for (int x : v) {
                out.writeInt(x);
            }
        }
    }

    /** A task run on a member, with the member's {@link MemberNode}. */
    abstract static class MemberTask<T> implements Callable<T>, Serializable, HazelcastInstanceAware {
        private static final long serialVersionUID = 2L;
        /** The build's {@link Wire#VERSION}, set in the constructor (not a constant, which reads would inline). */
        final int version;
        final String kind;
        final String runId;
        final long tick;
        final long epoch;
        /** Set last by each subclass's constructor ({@link #prove}): it covers the subclass's fields. */
        private byte[] proof;
        private transient HazelcastInstance hz;

        MemberTask(String kind, String runId, long epoch, long tick) {
            this.version = Wire.VERSION;
            this.kind = kind;
            this.runId = runId;
            this.epoch = epoch;
            this.tick = tick;
        }

        /**
         * Proves the task with {@code secret} (none with null): the last statement of every subclass's
         * constructor, once every field is set.
         */
        final void prove(ClusterSecret secret) {
            this.proof = secret == null ? null : secret.taskProof(canonical());
        }

        /** The proof it carries (tests). */
        final byte[] proof() {
            return proof == null ? null : proof.clone();
        }

        /** Testing: carries {@code forged} as its proof instead. */
        final void forgeProof(byte[] forged) {
            this.proof = forged;
        }

        /**
         * What the proof covers, unambiguously: a label, the wire version, the class, kind, run,
         * generation and tick, then the subclass's fields ({@link #payload}), each string and array
         * with its length first.
         */
        final byte[] canonical() {
            ByteArrayOutputStream b = new ByteArrayOutputStream(256);
            try (DataOutputStream out = new DataOutputStream(b)) {
                string(out, "crowdtree task");
                out.writeInt(version);
                string(out, getClass().getName());
                string(out, kind);
                string(out, runId);
                out.writeLong(epoch);
                out.writeLong(tick);
                payload().write(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a byte array does not throw
            }
            return b.toByteArray();
        }

        /** The task's own fields that say what it does, for {@link #canonical}. */
        abstract Payload payload();

        /**
         * The member's checks before it runs the task: the build's wire version, then the proof.
         *
         * @throws SecurityException when the proof is missing or not that of this task's contents
         */
        final void check(ClusterSecret secret) {
            checkVersion(kind, version);
            secret.checkTask(kind, canonical(), proof);
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
                        + " is not a crowdtree member (a driver, or a member that is still starting): a " + kind
                        + " task goes to a member that proved the secret");
            }
            check(node.secret);
            return run(node, hz);
        }

        abstract T run(MemberNode node, HazelcastInstance hz) throws Exception;
    }

    /**
     * The handshake: the answer of the member it runs on, lite or not, to a challenge:
     * {@link ClusterSecret#prove} under the handshake's own key, bound to the member's uuid. It answers
     * anyone (it is how a member shows it has the secret); what it answers is never a task proof or a
     * seal, whose keys are others. A member without a secret in its user context ({@link #SECRET_KEY}:
     * a process that knows only the cluster name) fails it.
     */
    static final class Prove implements Callable<byte[]>, Serializable, HazelcastInstanceAware {
        private static final long serialVersionUID = 2L;
        private final int version;
        private final byte[] challenge;
        private transient HazelcastInstance hz;

        Prove(byte[] challenge) {
            this.version = Wire.VERSION;
            this.challenge = challenge;
        }

        @Override
        public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
            this.hz = hazelcastInstance;
        }

        @Override
        public byte[] call() {
            checkVersion("prove", version);
            Object secret = hz.getUserContext().get(SECRET_KEY);
            if (!(secret instanceof ClusterSecret s)) {
                throw new IllegalStateException("member " + hz.getCluster().getLocalMember().getUuid() + " holds no "
                        + "cluster secret: it was not started by crowdtree (member, run, sweep) with --secret or "
                        + ClusterSecret.ENV);
            }
            return s.prove(challenge, hz.getCluster().getLocalMember().getUuid().toString());
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
            super("canrun", runId, 0, 0);
            this.model = model;
            this.fingerprint = fingerprint;
            prove(secret);
        }

        @Override
        Payload payload() {
            return out -> {
                string(out, model);
                string(out, fingerprint);
            };
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
            super("setup", spec.runId(), epoch, restoreTick);
            this.spec = spec;
            this.regions = regions;
            this.restoreEpoch = restoreEpoch;
            this.driver = driver;
            this.memberTimeoutNanos = memberTimeoutNanos;
            prove(secret);
        }

        @Override
        Payload payload() {
            return out -> {
                spec.writeTo(out);
                ints(out, regions);
                out.writeLong(restoreEpoch);
                string(out, String.valueOf(driver));
                out.writeLong(memberTimeoutNanos);
            };
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
            super("fence", runId, epoch, 0);
            this.why = why;
            prove(secret);
        }

        @Override
        Payload payload() {
            return out -> string(out, why);
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
            super("step", runId, epoch, tick);
            this.checkpoint = checkpoint;
            prove(secret);
        }

        @Override
        Payload payload() {
            return out -> out.writeBoolean(checkpoint);
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
            super("finish", runId, epoch, 0);
            prove(secret);
        }

        @Override
        Payload payload() {
            return out -> {
            };
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
            super("halt", runId, 0, 0);
            prove(secret);
        }

        @Override
        Payload payload() {
            return out -> {
            };
        }

        @Override
        Void run(MemberNode node, HazelcastInstance hz) {
            Runtime.getRuntime().halt(3);
            return null;
        }
    }
}
