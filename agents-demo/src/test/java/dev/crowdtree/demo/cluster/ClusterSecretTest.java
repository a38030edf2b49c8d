package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, item 5: the handshake's answers and the task proofs are under keys of their own (an
 * answer of {@link Tasks.Prove}, which answers anyone, is never a task proof), and a task proof
 * covers the task's contents (a task changed after the driver proved it is refused).
 */
class ClusterSecretTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("a test secret of some length");
    private static final RunSpec SPEC = ClusterRunTest.crowdSpec("proofs", dev.crowdtree.demo.sim.CrowdConfig.defaults()
            .withAgents(2_000), 4);

    /** What a stranger gets from {@code Prove} when it chooses the challenge and the member's uuid is {@code uuid}. */
    private static byte[] oracle(byte[] challenge, String uuid) {
        return SECRET.prove(challenge, uuid);
    }

    @Test
    void aProveAnswerOverATasksOwnBytesIsNotItsProof() {
        // a stranger asks Prove for exactly the bytes a task's proof is over: the challenge is all of
        // them but the last, the member's uuid the last (as if it were that character)
        Tasks.Step step = new Tasks.Step(SECRET, "run", 1, 7, false);
        byte[] bytes = step.canonical();
        byte[] challenge = Arrays.copyOf(bytes, bytes.length - 1);
        String last = new String(new byte[] {bytes[bytes.length - 1]}, StandardCharsets.UTF_8);
        byte[] answer = oracle(challenge, last);
        assertFalse(Arrays.equals(answer, step.proof()), "a handshake answer is a task proof: the keys are not separate");
        step.forgeProof(answer);
        SecurityException e = assertThrows(SecurityException.class, () -> step.check(SECRET));
        assertTrue(e.getMessage().startsWith("a step task whose proof is not that of its contents was refused"),
                e.getMessage());
        // and in general: over the same bytes, the handshake's MAC and the task's differ
        byte[] any = "step|run#1|".getBytes(StandardCharsets.UTF_8);
        byte[] joined = "step|run#1|5".getBytes(StandardCharsets.UTF_8);
        assertFalse(Arrays.equals(oracle(any, "5"), SECRET.taskProof(joined)));
        assertTrue(SECRET.verify(challenge, last, answer), "the handshake itself still works");
    }

    @Test
    void everyTaskIsProvedOverItsOwnFieldsAndAChangedOneIsRefused() throws Exception {
        UUID driver = UUID.randomUUID();
        Tasks.Setup setup = new Tasks.Setup(SECRET, SPEC, 2, driver, 1_000_000_000L, new int[] {0, 1}, 50, 1);
        assertDoesNotThrow(() -> copy(setup).check(SECRET), "a task as the driver sent it passes");
        assertRefused(changed(setup, "regions", new int[] {0, 1, 2, 3}), "setup");
        assertRefused(changed(setup, "restoreEpoch", 2L), "setup");
        assertRefused(changed(setup, "memberTimeoutNanos", 1L), "setup");
        assertRefused(changed(setup, "driver", UUID.randomUUID()), "setup");
        assertRefused(changed(setup, "spec", ClusterRunTest.crowdSpec("proofs", dev.crowdtree.demo.sim.CrowdConfig.defaults()
                .withAgents(2_001), 4)), "setup");
        assertRefused(changed(setup, "tick", 100L), "setup");
        assertRefused(changed(setup, "epoch", 3L), "setup");
        Tasks.Step step = new Tasks.Step(SECRET, "run", 1, 7, false);
        assertRefused(changed(step, "checkpoint", true), "step");
        assertRefused(changed(step, "runId", "another run"), "step");
        assertRefused(changed(new Tasks.Fence(SECRET, "run", 2, "it left"), "why", "something else"), "fence");
        assertRefused(changed(new Tasks.CanRun(SECRET, "run", "crowd", "abc"), "fingerprint", "def"), "canrun");
        SweepJob job = new SweepJob(SECRET, "sweep/0", new Sweep.Job("a", 100, 1, 10), SPEC);
        assertRefused(changed(job, "job", new Sweep.Job("a", 100, 1, 10_000)), "sweep");
        // a proof moved from one task to another of the same kind
        Tasks.Finish finish = new Tasks.Finish(SECRET, "run", 1);
        finish.forgeProof(new Tasks.Finish(SECRET, "run", 2).proof());
        assertRefused(finish, "finish");
        // and another secret's proof
        assertRefused(new Tasks.Halt(ClusterSecret.of("not the secret, but as long"), "run"), "halt");
        assertRefused(new Tasks.Halt(null, "run"), "halt");
    }

    @Test
    void aTaskOfAnotherWireVersionIsRefusedSayingSo() throws Exception {
        Tasks.Step step = changed(new Tasks.Step(SECRET, "run", 1, 7, false), "version", Wire.VERSION - 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> step.check(SECRET));
        assertEquals("a step task of wire version " + (Wire.VERSION - 1) + " was refused: this build reads " + Wire.VERSION
                + " (the driver and the members must run the same build)", e.getMessage());
    }

    /**
     * End to end, on a member: a setup whose regions were changed after it was proved, and a step
     * carrying a handshake answer as its proof, are refused before the member touches world data; the
     * same setup unchanged is run.
     */
    @Test
    void aMemberRefusesAChangedTaskAndAReplayedAnswerBeforeItTouchesWorldData() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, SECRET, "127.0.0.1")) {
            HazelcastInstance hz = cluster.members().get(0);
            Member member = hz.getCluster().getLocalMember();
            IExecutorService executor = cluster.driver().getExecutorService("crowdtree");
            UUID driver = cluster.driver().getCluster().getLocalMember().getUuid();
            Tasks.Setup setup = new Tasks.Setup(SECRET, SPEC, 1, driver, 1_000_000_000L, new int[] {0}, -1, 0);
            Tasks.Setup more = changed(setup, "regions", new int[] {0, 1, 2, 3});
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> executor.submitToMember(more, member).get(60, TimeUnit.SECONDS));
            assertInstanceOf(SecurityException.class, e.getCause(), String.valueOf(e.getCause()));
            // the member's answer to a challenge made of a step's bytes, replayed as that step's proof
            Tasks.Step step = new Tasks.Step(SECRET, SPEC.runId(), 1, 1, false);
            byte[] bytes = step.canonical();
            byte[] answer = executor.submitToMember(new Tasks.Prove(Arrays.copyOf(bytes, bytes.length - 1)), member)
                    .get(60, TimeUnit.SECONDS);
            step.forgeProof(answer);
            e = assertThrows(ExecutionException.class, () -> executor.submitToMember(step, member).get(60, TimeUnit.SECONDS));
            assertInstanceOf(SecurityException.class, e.getCause(), String.valueOf(e.getCause()));
            assertEquals(0, MemberNode.of(hz).worldTasks(), "no refused task reached world data");
            byte[] built = executor.submitToMember(setup, member).get(60, TimeUnit.SECONDS);
            assertTrue(Wire.SetupAnswer.decode(built).checkpointBytes() > 0, "the unchanged setup was run");
            assertEquals(1, MemberNode.of(hz).worldTasks());
        }
    }

    private static void assertRefused(Tasks.MemberTask<?> task, String kind) {
        SecurityException e = assertThrows(SecurityException.class, () -> task.check(SECRET), kind);
        assertTrue(e.getMessage().startsWith("a " + kind + " task "), e.getMessage());
    }

    /** {@code task} as a member gets it: serialized and read back. */
    @SuppressWarnings("unchecked")
    private static <T extends Tasks.MemberTask<?>> T copy(T task) throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(b)) {
            out.writeObject(task);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    /** A copy of {@code task} with field {@code name} set to {@code value} after it was proved, its proof kept. */
    private static <T extends Tasks.MemberTask<?>> T changed(T task, String name, Object value) throws Exception {
        T c = copy(task);
        byte[] proof = c.proof();
        for (Class<?> k = c.getClass(); k != null; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                f.setAccessible(true);
                f.set(c, value);
                assertArrayEquals(proof, c.proof());
                return c;
            } catch (NoSuchFieldException e) {
                // a superclass's field
            }
        }
        throw new IllegalArgumentException("no field " + name + " in " + task.getClass());
    }
}
