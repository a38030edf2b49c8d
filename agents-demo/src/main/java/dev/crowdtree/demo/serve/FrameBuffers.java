package dev.crowdtree.demo.serve;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A small pool of frame buffers shared by one writer (the simulation thread) and any number of
 * readers (HTTP threads): the writer fills a buffer that is neither published nor being read, then
 * publishes it; readers pin the published buffer while they send it.
 *
 * <p>THREADING: {@link #writable()} and {@link #publish(Frame)} are for the simulation thread only.
 * {@link #acquire()}, {@link #release(Frame)} and {@link #awaitNewer(long, long)} are for any
 * thread. The protocol: a reader increments a frame's reader count and then checks that the frame
 * is still the published one (else it backs off and retries); the writer only takes a frame that is
 * not the published one and whose reader count is 0. Both steps go through atomics, so a reader
 * never reads a frame the writer is filling, and the writer never fills a frame a reader holds.
 * Publication is a volatile write (the {@link AtomicReference}), so readers see every byte the
 * writer wrote before it. Buffers are allocated when the writer first needs them, so the pool
 * costs only as many buffers as readers actually pin at once (plus two).
 *
 * <p>The listener set with {@link #onPublish(Runnable)} runs on the writer's thread after every
 * publication; it must be quick and must not block.
 */
final class FrameBuffers {
    /** One frame buffer. Its bytes are immutable while it is published or pinned by a reader. */
    static final class Frame {
        byte[] bytes;
        ByteBuffer buf;
        int length;
        long seq;
        long tick;
        final AtomicInteger readers = new AtomicInteger();

        Frame(int capacity) {
            ensure(capacity);
        }

        /** Grows the buffer to at least {@code capacity} bytes (writer only, rare). */
        void ensure(int capacity) {
            if (bytes == null || bytes.length < capacity) {
                bytes = new byte[capacity];
                buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    private final Frame[] frames;
    private final int capacity;
    private final AtomicReference<Frame> front = new AtomicReference<>();
    private final Object newFrame = new Object();
    private long skipped;
    // THREADING: set once before the writer starts (Thread.start orders it), read by the writer.
    private Runnable publishListener;

    /**
     * @param count    buffers in the pool: at least 2; one more than the number of concurrent
     *                 readers means the writer never has to skip a publication
     * @param capacity initial bytes per buffer (buffers are allocated when first needed)
     */
    FrameBuffers(int count, int capacity) {
        frames = new Frame[Math.max(2, count)];
        this.capacity = capacity;
    }

    /** Sets what runs on the writer's thread after each publication. Before the writer starts. */
    void onPublish(Runnable listener) {
        publishListener = listener;
    }

    /** A frame the writer may fill now, or null when every other frame is being read. Writer only. */
    Frame writable() {
        Frame published = front.get();
        for (int i = 0; i < frames.length; i++) {
            Frame f = frames[i];
            if (f == null) {
                f = frames[i] = new Frame(capacity); // readers only reach frames through front
                return f;
            }
            if (f != published && f.readers.get() == 0) {
                return f;
            }
        }
        skipped++;
        return null;
    }

    /** Publishes a filled frame (from {@link #writable()}) and wakes readers waiting for it. Writer only. */
    void publish(Frame f) {
        front.set(f);
        synchronized (newFrame) {
            newFrame.notifyAll();
        }
        Runnable l = publishListener;
        if (l != null) {
            l.run();
        }
    }

    /** The sequence number of the published frame, or -1 before the first publication. Any thread. */
    long latestSeq() {
        Frame f = front.get();
        return f == null ? -1 : f.seq;
    }

    /** Buffers allocated so far. Writer only. */
    int allocated() {
        int n = 0;
        for (Frame f : frames) {
            n += f == null ? 0 : 1;
        }
        return n;
    }

    /** Publications skipped because every spare buffer was being read. Writer only. */
    long skipped() {
        return skipped;
    }

    /** Pins and returns the published frame, or null before the first publication. Pair with {@link #release}. */
    Frame acquire() {
        while (true) {
            Frame f = front.get();
            if (f == null) {
                return null;
            }
            f.readers.incrementAndGet();
            if (front.get() == f) {
                return f;
            }
            f.readers.decrementAndGet(); // replaced meanwhile; the writer may be filling it: retry
        }
    }

    /** Unpins a frame from {@link #acquire()}. */
    void release(Frame f) {
        f.readers.decrementAndGet();
    }

    /**
     * Waits until a frame with a sequence number above {@code seq} is published, at most
     * {@code timeoutMillis}. Returns whether one is.
     */
    boolean awaitNewer(long seq, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (newFrame) {
            while (true) {
                Frame f = front.get();
                if (f != null && f.seq > seq) {
                    return true;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                newFrame.wait(left);
            }
        }
    }
}
