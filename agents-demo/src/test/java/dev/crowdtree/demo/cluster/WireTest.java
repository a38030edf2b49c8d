package dev.crowdtree.demo.cluster;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 23, item 8: the members' answers as records with a versioned codec, refused when they do not fit. */
class WireTest {
    @Test
    void everyAnswerComesBackAsItWasSent() {
        Wire.SetupAnswer setup = new Wire.SetupAnswer(123_456_789L, 42);
        assertEquals(setup, Wire.SetupAnswer.decode(setup.encode()));
        Wire.StepAnswer step = new Wire.StepAnswer(5, 6, 7, 8, 9, Long.MAX_VALUE);
        assertEquals(step, Wire.StepAnswer.decode(step.encode()));
        assertEquals(new Wire.StepAnswer(5, 12, 14, 16, 18, 20), new Wire.StepAnswer(5, 6, 7, 8, 9, 10)
                .plus(new Wire.StepAnswer(99, 6, 7, 8, 9, 10)));
        Wire.MemberResult r = new Wire.MemberResult(1, -2, 3, 4, 5, 6, new long[] {9, 10, 11}, new long[] {12, 13});
        Wire.MemberResult back = Wire.MemberResult.decode(r.encode());
        assertEquals(r.agents(), back.agents());
        assertEquals(r.agentHash(), back.agentHash());
        assertEquals(r.sharedHash(), back.sharedHash());
        assertEquals(r.ownedHash(), back.ownedHash());
        assertEquals(r.nodeFailures(), back.nodeFailures());
        assertArrayEquals(r.occupancy(), back.occupancy());
        assertArrayEquals(r.counters(), back.counters());
        assertEquals(0, Wire.MemberResult.decode(Wire.MemberResult.NONE.encode()).occupancy().length);
    }

    @Test
    void anAnswerOfAnotherKindVersionOrLengthIsRefusedSayingWhat() {
        byte[] step = new Wire.StepAnswer(1, 2, 3, 4, 5, 6).encode();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Wire.SetupAnswer.decode(step));
        assertEquals("expected a setup answer, got an answer of kind 2", e.getMessage());
        byte[] newer = step.clone();
        newer[4] = (byte) (Wire.VERSION + 1); // the next version, big-endian int after the kind byte
        e = assertThrows(IllegalStateException.class, () -> Wire.StepAnswer.decode(newer));
        assertTrue(e.getMessage().startsWith("a step answer of wire version " + (Wire.VERSION + 1) + ", this build reads "
                + Wire.VERSION), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> Wire.StepAnswer.decode(Arrays.copyOf(step, step.length - 3)));
        assertTrue(e.getMessage().startsWith("a step answer cut short"), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> Wire.StepAnswer.decode(Arrays.copyOf(step, step.length + 2)));
        assertEquals("a step answer with 2 bytes too many", e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> Wire.StepAnswer.decode(new byte[2]));
        assertEquals("a step answer of 2 bytes: too short", e.getMessage());
        byte[] result = new Wire.MemberResult(1, 2, 3, 4, 5, 6, new long[] {1}, new long[0]).encode();
        byte[] lying = result.clone();
        lying[1 + 4 + 48 + 3] = 100; // claims 100 states, holds 1
        e = assertThrows(IllegalStateException.class, () -> Wire.MemberResult.decode(lying));
        assertTrue(e.getMessage().contains("an occupancy of 100 states does not fit"), e.getMessage());
    }
}
