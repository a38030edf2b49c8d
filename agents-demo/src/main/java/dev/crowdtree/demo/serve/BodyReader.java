package dev.crowdtree.demo.serve;

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
 * Reads a small request body without holding a thread while the client sends it, with a size limit
 * and a total deadline: the future completes with the body, or exceptionally with
 * {@link TooLarge} past the limit or {@link TooSlow} when the body has not arrived in full within
 * the deadline (trickling bytes does not extend it).
 *
 * <p>THREADING: reading runs on Jetty's threads as content arrives (Jetty calls the demand callback
 * on one thread at a time), the deadline on the scheduler's thread; whichever finishes first flips
 * {@code done} and completes the future, the other does nothing.
 */
final class BodyReader {
    /** The body is longer than the limit. */
    static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge(int max) {
            super("the request body is longer than " + max + " bytes", null, false, false);
        }
    }

    /** The body did not arrive in time. */
    static final class TooSlow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooSlow(long millis) {
            super("the request body did not arrive within " + millis + " ms", null, false, false);
        }
    }

    private final Request request;
    private final int max;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Scheduler.Task deadline;

    private BodyReader(Request request, int max) {
        this.request = request;
        this.max = max;
    }

    /** Reads the body of {@code request} as UTF-8, at most {@code max} bytes, within {@code millis}. */
    static CompletableFuture<String> read(Request request, int max, long millis, Scheduler scheduler) {
        BodyReader r = new BodyReader(request, max);
        r.deadline = scheduler.schedule(() -> r.finish(null, new TooSlow(millis)), millis, TimeUnit.MILLISECONDS);
        r.readAvailable();
        return r.result;
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
        if (failure == null) {
            result.complete(body);
        } else {
            result.completeExceptionally(failure);
        }
    }
}
