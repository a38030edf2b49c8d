package dev.crowdtree.demo.serve;

import dev.crowdtree.demo.http.Answers;
import dev.crowdtree.demo.serve.FrameBuffers.Frame;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code GET /frame[?after=seq]} without holding a thread: a request for a frame newer than the
 * published one waits as an entry in a queue (no thread) until the simulation publishes a newer
 * frame or a second passes, whichever comes first, then gets the latest frame. The frame is written
 * asynchronously straight from its pinned buffer; the buffer is unpinned when the write completes or
 * fails (a client that does not read is dropped by the connection's write timeout, which fails the
 * write). At most {@link ServerLimits#maxFrameStreams()} requests wait or write at once. When they
 * are all taken, a new request takes the slot of the answer that has been stalled longest (written
 * for more than {@value #STALLED_MS} ms and not finished: a client that does not read), whose
 * connection is closed; only when none is stalled is it answered at once with 503 and
 * {@code Retry-After: 1}. So clients that request frames and never read them (pipelining requests
 * on many connections) cannot keep the slots from clients that read. Every frame answer also has a
 * total deadline, the write timeout: a client that reads it slowly but steadily is dropped when it
 * passes, where the idle timeout alone would let it hold the slot for as long as it kept reading.
 *
 * <p>THREADING: {@link #serve} runs on HTTP threads; {@link #published()} on the simulation thread
 * after each publication (it only hands the waiting queue to the HTTP executor); timeouts on the
 * scheduler's thread. Each waiter is answered once: whoever flips its {@code done} flag first (a
 * publication, its timeout, or the request itself when a frame arrived while it was enqueuing)
 * answers it, on an HTTP thread.
 */
final class FrameStreams {
    /** How long {@code /frame?after=} waits for a newer frame. */
    static final long FRAME_WAIT_MS = 1000;
    /** An answer still being written after this long is stalled: its slot may be taken by a new request. */
    static final long STALLED_MS = 250;

    /** A frame answer being written: its connection, when it started, whether it finished. */
    private static final class Writing {
        final Request request;
        final long started = System.nanoTime();
        final AtomicBoolean finished = new AtomicBoolean();
        volatile Scheduler.Task deadline;

        Writing(Request request) {
            this.request = request;
        }

        /** Closes the connection: the write fails, which releases the frame and the slot. */
        void abort() {
            if (finished.compareAndSet(false, true)) {
                request.getConnectionMetaData().getConnection().getEndPoint().close();
            }
        }
    }

    /** One {@code /frame?after=} request waiting for a newer frame. */
    private final class Waiter implements Runnable {
        final long after;
        final Request request;
        final Response response;
        final Callback callback;
        final AtomicBoolean done = new AtomicBoolean();
        volatile Scheduler.Task timeout;

        Waiter(long after, Request request, Response response, Callback callback) {
            this.after = after;
            this.request = request;
            this.response = response;
            this.callback = callback;
        }

        /** Answers with the latest frame, once (timeouts call this on the scheduler: hop to the executor). */
        @Override
        public void run() {
            if (done.compareAndSet(false, true)) {
                Scheduler.Task t = timeout;
                if (t != null) {
                    t.cancel();
                }
                waiting.remove(this);
                try {
                    executor.execute(() -> send(request, response, callback));
                } catch (RejectedExecutionException e) {
                    callback.failed(e); // the server is stopping
                }
            }
        }
    }

    private final FrameBuffers frames;
    private final Executor executor;
    private final Scheduler scheduler;
    private final int maxStreams;
    private final AtomicInteger streams = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final Queue<Waiter> waiting = new ConcurrentLinkedQueue<>();
    private final Queue<Writing> writing = new ConcurrentLinkedQueue<>();
    private final long writeDeadlineMs;
    private final AtomicInteger evicted = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();

    FrameStreams(FrameBuffers frames, Executor executor, Scheduler scheduler, int maxStreams, long writeDeadlineMs) {
        this.frames = frames;
        this.executor = executor;
        this.scheduler = scheduler;
        this.maxStreams = maxStreams;
        this.writeDeadlineMs = writeDeadlineMs;
        frames.onPublish(this::published);
    }

    /** Requests answered 503 because the cap was reached. */
    int refused() {
        return busy.get();
    }

    /** Stalled answers whose connection was closed to give their slot to a new request. */
    int evicted() {
        return evicted.get();
    }

    /**
     * Closes the connection of the answer stalled longest, if one is ({@link #STALLED_MS}); returns
     * whether one was. Its slot is freed when its write fails, shortly after.
     */
    private boolean evictStalled() {
        long now = System.nanoTime();
        Writing oldest = null;
        for (Writing w : writing) {
            if (!w.finished.get() && now - w.started >= STALLED_MS * 1_000_000L
                    && (oldest == null || w.started < oldest.started)) {
                oldest = w;
            }
        }
        if (oldest == null) {
            return false;
        }
        writing.remove(oldest);
        oldest.abort();
        evicted.incrementAndGet();
        return true;
    }

    /**
     * Answers {@code GET /frame}: at once when {@code after} is null or older than the published
     * frame, else when a newer one is published or after {@link #FRAME_WAIT_MS}. Completes
     * {@code callback} when the answer is written.
     */
    void serve(Long after, Request request, Response response, Callback callback) {
        // a stalled answer gives up its slot; until its write fails the count may pass the cap by the
        // evictions in flight, never beyond twice the cap
        if (streams.incrementAndGet() > maxStreams && (streams.get() > 2 * maxStreams || !evictStalled())) {
            streams.decrementAndGet();
            busy.incrementAndGet();
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
            Answers.sendError(request, response, callback, 503, "too many frame requests at once (at most "
                    + maxStreams + "); retry in a second");
            return;
        }
        Callback release = Answers.runFirst(streams::decrementAndGet, callback);
        if (after == null || frames.latestSeq() > after) {
            send(request, response, release);
            return;
        }
        Waiter w = new Waiter(after, request, response, release);
        waiting.add(w);
        w.timeout = scheduler.schedule(w, FRAME_WAIT_MS, TimeUnit.MILLISECONDS);
        if (frames.latestSeq() > after) {
            w.run(); // published while we enqueued: the publication may have missed us
        }
    }

    /** After a publication (simulation thread): answers the waiters it satisfies, on an HTTP thread. */
    private void published() {
        if (!waiting.isEmpty() && draining.compareAndSet(false, true)) {
            try {
                executor.execute(this::drain);
            } catch (RuntimeException e) {
                draining.set(false); // the executor is stopping
            }
        }
    }

    private void drain() {
        draining.set(false);
        long latest = frames.latestSeq();
        for (Waiter w : waiting) {
            if (latest > w.after) {
                w.run(); // removes it
            }
        }
    }

    /** Writes the latest frame; pins its buffer until the write completes or fails. */
    private void send(Request request, Response response, Callback callback) {
        Frame f = frames.acquire();
        if (f == null) {
            Answers.sendError(request, response, callback, 503, "no frame yet: the simulation is starting");
            return;
        }
        try {
            HttpFields.Mutable h = response.getHeaders();
            h.put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
            h.put(HttpHeader.CACHE_CONTROL, "no-store");
            h.put("X-Frame-Seq", Long.toString(f.seq));
            h.put("X-Frame-Tick", Long.toString(f.tick));
            response.setStatus(200);
            if (request.getMethod().equals("HEAD")) {
                frames.release(f);
                response.write(true, null, callback);
                return;
            }
            h.put(HttpHeader.CONTENT_LENGTH, f.length);
            Writing w = new Writing(request);
            writing.add(w);
            w.deadline = scheduler.schedule(w::abort, writeDeadlineMs, TimeUnit.MILLISECONDS);
            response.write(true, ByteBuffer.wrap(f.bytes, 0, f.length), Answers.runFirst(() -> {
                w.finished.set(true);
                Scheduler.Task d = w.deadline;
                if (d != null) {
                    d.cancel();
                }
                writing.remove(w);
                frames.release(f);
            }, callback));
        } catch (RuntimeException e) {
            frames.release(f);
            callback.failed(e);
        }
    }
}
