package dev.crowdtree.demo.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member's fence (issue 23, item 2): the tasks and writes of its run's generation only; a stale
 * task refused with one line; fenced by the driver, by a newer generation in the map, or by a freeze
 * of its JVM during a step, after which it writes nothing.
 */
@Tag("cluster") // starts Hazelcast members: -DexcludedGroups=cluster leaves it out (the README), .ci/run runs it
class MemberFenceTest {
    private final ByteArrayOutputStream lines = new ByteArrayOutputStream();
    private final MemberFence fence = new MemberFence(new PrintStream(lines, true, StandardCharsets.UTF_8), "m1");

    private String said() {
        return lines.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aMemberWritesForItsGenerationOnlyAndRefusesStaleTasks() {
        fence.begin("run", 1, UUID.randomUUID(), 10_000_000_000L, 3);
        fence.check("run", 1);
        assertTrue(fence.writable(1, System.nanoTime()));
        assertFalse(fence.writable(0, System.nanoTime()), "a write of another generation");
        assertThrows(MemberFence.Fenced.class, () -> fence.check("other run", 1));
        fence.begin("run", 2, UUID.randomUUID(), 10_000_000_000L, 3); // a recovery: generation 2
        MemberFence.Fenced stale = assertThrows(MemberFence.Fenced.class, () -> fence.check("run", 1));
        assertTrue(stale.getMessage().contains("generation 1 of run run was refused: the run is at generation 2"),
                stale.getMessage());
        assertThrows(MemberFence.Fenced.class, () -> fence.begin("run", 2, UUID.randomUUID(), 1, 3), "a setup replayed");
        assertTrue(said().contains("crowdtree member m1: a task of generation 1 of run run was refused"), said());
    }

    @Test
    void aFencedMemberSaysSoOnceAndWritesNothingUntilANewerSetup() {
        fence.begin("run", 1, UUID.randomUUID(), 10_000_000_000L, 3);
        assertTrue(fence.fence("run", 2, "it did not answer within the member timeout of 10.0 s during tick 7"));
        assertFalse(fence.fence("run", 2, "again"), "once");
        assertFalse(fence.writable(1, System.nanoTime()));
        assertFalse(fence.writable(1));
        assertEquals(2, fence.refusedWrites());
        assertThrows(MemberFence.Fenced.class, () -> fence.check("run", 1));
        assertEquals(1, said().lines().count(), said());
        assertTrue(said().startsWith("crowdtree member m1: fenced out of run run at generation 1 (it did not answer"), said());
        fence.begin("run", 3, UUID.randomUUID(), 10_000_000_000L, 2); // given regions again, in generation 3
        assertTrue(fence.writable(3, System.nanoTime()));
    }

    @Test
    void aNewerGenerationInTheMapFencesTheMember() {
        fence.begin("run", 1, UUID.randomUUID(), 10_000_000_000L, 3);
        fence.seen("run", 1);
        assertTrue(fence.writable(1, System.nanoTime()));
        fence.seen("run", 2);
        assertFalse(fence.writable(1, System.nanoTime()));
        assertTrue(said().contains("(the run is at generation 2)"), said());
    }

    @Test
    void aFreezeOfTheJvmDuringAStepFencesTheMemberButASlowStepDoesNot() throws Exception {
        // member timeout 0.5 s: a freeze of 0.5 s + a ping's 2 s is one the driver surely gave up on
        fence.begin("run", 1, UUID.randomUUID(), 500_000_000L, 3);
        long start = System.nanoTime();
        for (int i = 0; i < 30; i++) { // a slow step whose JVM beats: 3 s, no freeze
            fence.beat();
            Thread.sleep(100);
        }
        fence.beat();
        assertTrue(fence.writable(1, start), said());
        Thread.sleep(2_700); // no beat: frozen
        assertFalse(fence.writable(1, start));
        assertTrue(said().contains("fenced out of run run at generation 1 (its JVM was frozen for "), said());
    }
}
