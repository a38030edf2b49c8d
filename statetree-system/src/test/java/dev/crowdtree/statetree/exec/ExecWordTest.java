package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.node.RunStatus;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The execution word's codec: each field reads back what was written and leaves the others as they were. */
class ExecWordTest {
    @Test
    void everyFieldRoundTripsWithoutTouchingTheOthers() {
        SplittableRandom rnd = new SplittableRandom(21);
        byte[] runs = {RunStatus.UNSET, RunStatus.RUNNING, RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.STOPPED};
        byte[] lasts = {RunStatus.UNSET, RunStatus.RUNNING, RunStatus.SUCCEEDED, RunStatus.FAILED};
        for (int i = 0; i < 10_000; i++) {
            long e = rnd.nextLong();
            int state = rnd.nextInt(0x10000), failed = rnd.nextInt(0x10000);
            byte run = runs[rnd.nextInt(runs.length)], last = lasts[rnd.nextInt(lasts.length)];
            byte lod = (byte) rnd.nextInt(256);
            long w = ExecWord.withLod(ExecWord.withLast(ExecWord.withRun(ExecWord.withFailed(ExecWord.withState(e, state),
                    failed), run), last), lod);
            assertEquals(state, ExecWord.state(w));
            assertEquals(failed, ExecWord.failed(w));
            assertEquals(run, ExecWord.run(w));
            assertEquals(last, ExecWord.last(w));
            assertEquals(lod, ExecWord.lod(w));
            assertEquals(e & ExecWord.GATE_BIT, w & ExecWord.GATE_BIT, "the gate bit is kept");
            assertEquals(ExecWord.changesLow(e), ExecWord.changesLow(w), "the change count is kept");
            assertEquals(e & (3L << 38), w & (3L << 38), "the unused bits 38-39 are kept");
        }
    }

    @Test
    void aZeroedWordIsAFreshInstance() {
        assertEquals(0, ExecWord.state(0L));
        assertEquals(RunStatus.UNSET, ExecWord.run(0L));
        assertEquals(RunStatus.UNSET, ExecWord.last(0L));
        assertEquals(0, ExecWord.changesLow(0L));
    }
}
