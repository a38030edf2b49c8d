package dev.crowdtree.core;

import dev.crowdtree.core.schedule.ChunkExecutionException;
import dev.crowdtree.core.schedule.ChunkExecutor;
import dev.crowdtree.core.schedule.ChunkKernel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A throwing kernel surfaces its chunk on the calling thread; the executor neither hangs nor breaks. */
@Timeout(60)
class ExecutorFailureTest {

    static final class Boom implements ChunkKernel {
        final int failChunk;

        Boom(int failChunk) {
            this.failChunk = failChunk;
        }

        @Override
        public void execute(dev.crowdtree.core.schedule.Chunk c) {
            if (c.index() == failChunk || failChunk < 0 && c.index() % 3 == 1) {
                throw new IllegalStateException("bad row " + (c.begin() + 5));
            }
        }
    }

    @Test
    void throwingKernelNamesItsChunkAndRowsAndTheNextPhaseWorks() {
        for (int workers : new int[] {1, 2, 4}) {
            try (ChunkExecutor ex = new ChunkExecutor(workers)) {
                for (int round = 0; round < 50; round++) {
                    ChunkExecutionException e = assertThrows(ChunkExecutionException.class,
                            () -> ex.run(new Boom(3), 10_000, 1024));
                    assertEquals(3, e.chunkIndex());
                    assertEquals(3072, e.rowBegin());
                    assertEquals(4096, e.rowEnd());
                    assertEquals("Boom", e.kernelName());
                    assertTrue(e.getMessage().contains("chunk 3 (rows 3072..4095 of 10000)"), e.getMessage());
                    assertInstanceOf(IllegalStateException.class, e.getCause());

                    AtomicLong sum = new AtomicLong();
                    ex.run(c -> sum.addAndGet(c.size()), 10_000, 1024);
                    assertEquals(10_000, sum.get(), "next phase must cover every row once");
                }
            }
        }
    }

    @Test
    void severalFailuresReportTheLowestChunkWhateverTheWorkerCount() {
        for (int workers : new int[] {1, 2, 3, 8}) {
            try (ChunkExecutor ex = new ChunkExecutor(workers)) {
                ChunkExecutionException e = assertThrows(ChunkExecutionException.class,
                        () -> ex.run(new Boom(-1), 100_000, 1024));
                assertEquals(1, e.chunkIndex());
                // chunks 1, 4, 7, ... 97 fail: 33 failures, 32 attached as suppressed
                assertEquals(32, e.getCause().getSuppressed().length);
            }
        }
    }

    @Test
    void lastChunkIsShortAndEveryRowIsVisitedExactlyOnce() {
        try (ChunkExecutor ex = new ChunkExecutor(3)) {
            int rows = 10_001;
            AtomicInteger[] seen = new AtomicInteger[rows];
            for (int i = 0; i < rows; i++) {
                seen[i] = new AtomicInteger();
            }
            for (int round = 0; round < 200; round++) {
                ex.run(c -> {
                    for (int r = c.begin(); r < c.end(); r++) {
                        seen[r].incrementAndGet();
                    }
                }, rows, 512);
            }
            for (int i = 0; i < rows; i++) {
                assertEquals(200, seen[i].get(), "row " + i);
            }
        }
    }

    @Test
    void nestedRunIsRejected() {
        try (ChunkExecutor ex = new ChunkExecutor(2)) {
            ChunkExecutionException e = assertThrows(ChunkExecutionException.class,
                    () -> ex.run(c -> ex.run(d -> { }, 10, 1), 10, 1));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            ex.run(c -> { }, 10, 1);
        }
    }

    @Test
    void closedExecutorRefusesWork() {
        ChunkExecutor ex = new ChunkExecutor(2);
        ex.close();
        ex.close();
        assertThrows(IllegalStateException.class, () -> ex.run(c -> { }, 10, 1));
    }
}
