package dev.crowdtree.demo.http;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a small request body without holding a thread while the client sends it, with a size limit,
 * a total deadline and a minimum rate: the future completes with the body, or exceptionally with
 * {@link TooLarge} past the limit or {@link TooSlow} when the body has not arrived in full within
 * the deadline (trickling bytes does not extend it) or, after a grace of {@value #GRACE_MS} ms, has
 * arrived at fewer than {@value #MIN_BYTES_PER_SECOND} bytes per second on average (checked every
 * {@value #CHECK_MS} ms), so a client trickling a byte at a time holds its connection half a
 * second, not the whole deadline.
 *
 * <p>THREADING: reading runs on Jetty's threads as content arrives (Jetty calls the demand callback
 * on one thread at a time), the deadline on the scheduler's thread; whichever finishes first flips
 * {@code done} and completes the future, the other does nothing.
 */
public final class BodyReader {
    /** The body is longer than the limit (answered with 413). */
    public static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** The body is longer than {@code max} bytes. */
        public TooLarge(int max) {
            super("the request body is longer than " + max + " bytes", null, false, false);
        }
    }

    /** The body did not arrive in time (answered with 408, and the connection closed). */
    public static final class TooSlow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooSlow(long millis) {
            this("the request body did not arrive within " + millis + " ms");
        }

        TooSlow(String message) {
            super(message, null, false, false);
        }
    }

    /** The average rate a body must keep up after {@link #GRACE_MS}. */
    public static final int MIN_BYTES_PER_SECOND = 512;
    /** How long a body may take before its rate is checked. */
    public static final long GRACE_MS = 500;
    /** How often the rate is checked after the grace. */
    public static final long CHECK_MS = 250;

    private final Request request;
    private final int max;
    private final long started = System.nanoTime();
    private volatile int received;
    private volatile Scheduler.Task rateCheck;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Scheduler.Task deadline;

    private BodyReader(Request request, int max) {
        this.request = request;
        this.max = max;
    }

    /** Reads the body of {@code request} as UTF-8, at most {@code max} bytes, within {@code millis}. */
    public static CompletableFuture<String> read(Request request, int max, long millis, Scheduler scheduler) {
        BodyReader r = new BodyReader(request, max);
        r.deadline = scheduler.schedule(() -> r.finish(null, new TooSlow(millis)), millis, TimeUnit.MILLISECONDS);
        r.rateCheck = scheduler.schedule(() -> r.checkRate(scheduler), GRACE_MS, TimeUnit.MILLISECONDS);
        r.readAvailable();
        return r.result;
    }

    /** Fails a body that arrives slower than {@link #MIN_BYTES_PER_SECOND} on average; else checks again later. */
    private void checkRate(Scheduler scheduler) {
        if (done.get()) {
            return;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (received < seconds * MIN_BYTES_PER_SECOND) {
            finish(null, new TooSlow(String.format(java.util.Locale.ROOT, "the request body arrived too slowly "
                    + "(%d bytes in %.1f s; at least %d bytes per second are needed)", received, seconds, MIN_BYTES_PER_SECOND)));
            return;
        }
        rateCheck = scheduler.schedule(() -> checkRate(scheduler), CHECK_MS, TimeUnit.MILLISECONDS);
    }

    private void readAvailable() {
        while (!done.get()) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this::readAvailable);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                finish(null, chunk.getFailure());
                return;
            }
            try {
                ByteBuffer b = chunk.getByteBuffer();
                if (bytes.size() + b.remaining() > max) {
                    finish(null, new TooLarge(max));
                    return;
                }
                byte[] part = new byte[b.remaining()];
                b.get(part);
                bytes.write(part, 0, part.length);
                received = bytes.size();
            } finally {
                chunk.release();
            }
            if (chunk.isLast()) {
                finish(bytes.toString(StandardCharsets.UTF_8), null);
                return;
            }
        }
    }

    private void finish(String body, Throwable failure) {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        Scheduler.Task t = deadline;
        if (t != null) {
            t.cancel();
        }
        Scheduler.Task c = rateCheck;
        if (c != null) {
            c.cancel();
        }
        if (failure == null) {
            result.complete(body);
        } else {
            result.completeExceptionally(failure);
        }
    }
}
