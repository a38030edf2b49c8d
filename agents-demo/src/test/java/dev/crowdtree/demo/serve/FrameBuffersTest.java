package dev.crowdtree.demo.serve;

import dev.crowdtree.demo.serve.FrameBuffers.Frame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The frame pool: the writer never gets a published or pinned frame; readers see whole frames. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FrameBuffersTest {

    @Test
    void theWriterNeverGetsThePublishedOrAPinnedFrame() throws Exception {
        FrameBuffers pool = new FrameBuffers(3, 16);
        assertNull(pool.acquire(), "nothing published yet");
        Frame a = pool.writable();
        a.seq = 1;
        pool.publish(a);
        Frame pinned = pool.acquire();
        assertSame(a, pinned);
        Frame b = pool.writable();
        assertNotSame(a, b);
        b.seq = 2;
        pool.publish(b);
        // a is still pinned by the reader: the writer must use the third frame
        Frame c = pool.writable();
        assertNotSame(a, c);
        assertNotSame(b, c);
        Frame pinnedB = pool.acquire();
        assertSame(b, pinnedB);
        c.seq = 3;
        pool.publish(c);
        assertNull(pool.writable(), "a and b pinned, c published: nothing to write");
        assertEquals(1, pool.skipped());
        pool.release(pinned);
        assertSame(a, pool.writable());
        pool.release(pinnedB);
        assertTrue(pool.awaitNewer(2, 10));
        assertFalse(pool.awaitNewer(3, 20));
    }

    @Test
    void buffersAreAllocatedWhenFirstNeededAndPublicationsAreAnnounced() {
        FrameBuffers pool = new FrameBuffers(18, 1 << 20);
        int[] announced = {0};
        pool.onPublish(() -> announced[0]++);
        assertEquals(0, pool.allocated());
        assertEquals(-1, pool.latestSeq());
        for (int i = 1; i <= 10; i++) {
            Frame f = pool.writable();
            f.seq = i;
            pool.publish(f);
        }
        assertEquals(2, pool.allocated(), "with no reader the writer alternates between two buffers");
        assertEquals(10, pool.latestSeq());
        assertEquals(10, announced[0]);
        Frame pinned = pool.acquire();
        Frame f = pool.writable();
        f.seq = 11;
        pool.publish(f);
        assertEquals(2, pool.allocated());
        assertNotSame(pinned, pool.writable(), "one pinned, one published: the writer takes a third");
        assertEquals(3, pool.allocated());
        pool.release(pinned);
    }

    @Test
    void readersAlwaysSeeAConsistentFrame() throws Exception {
        FrameBuffers pool = new FrameBuffers(4, 4096);
        AtomicReference<String> problem = new AtomicReference<>();
        CountDownLatch stop = new CountDownLatch(1);
        Thread[] readers = new Thread[3];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = new Thread(() -> {
                while (stop.getCount() > 0 && problem.get() == null) {
                    Frame f = pool.acquire();
                    if (f == null) {
                        continue;
                    }
                    try {
                        byte v = f.bytes[0];
                        for (int k = 1; k < f.length; k++) {
                            if (f.bytes[k] != v) {
                                problem.set("torn frame: byte " + k + " is " + f.bytes[k] + ", byte 0 is " + v);
                                break;
                            }
                        }
                    } finally {
                        pool.release(f);
                    }
                }
            });
            readers[i].start();
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        long seq = 0;
        while (System.nanoTime() < end && problem.get() == null) {
            Frame f = pool.writable();
            if (f == null) {
                continue;
            }
            byte v = (byte) ++seq;
            java.util.Arrays.fill(f.bytes, 0, 4096, v);
            f.length = 4096;
            f.seq = seq;
            pool.publish(f);
        }
        stop.countDown();
        for (Thread t : readers) {
            t.join(5000);
        }
        assertNull(problem.get());
        assertTrue(seq > 10, "published " + seq);
    }
}
