package dev.crowdtree.demo.serve;

/**
 * The limits that keep {@code serve}'s HTTP server answering when clients are slow, stall or come
 * in crowds (see {@link CrowdServer}). {@link #DEFAULTS} is what {@code serve} uses; the command
 * line can change the two caps, tests shorten the timeouts.
 *
 * @param headerTimeoutMs a connection must deliver a complete request head (request line and
 *                        headers) within this time of opening, or of its previous answer; else it
 *                        is closed. A total deadline: trickling bytes does not extend it.
 * @param bodyTimeoutMs   a request body must arrive in full within this time of its head, else
 *                        408 and the connection is closed (and, after its first half second, at
 *                        {@link BodyReader#MIN_BYTES_PER_SECOND} bytes per second on average)
 * @param writeTimeoutMs  a connection whose answer makes no progress (the client does not read)
 *                        for this long is closed; also the idle time of a connection, and the
 *                        total time a frame answer may take to be written
 * @param maxHeaderBytes  the request line and headers together; more is answered with 431
 * @param maxBodyBytes    request body; more is answered with 413
 * @param maxConnections  open connections; a new one beyond it closes the connection idle the
 *                        longest (one with no request in progress), or itself if none is idle
 * @param maxFrameStreams {@code /frame} requests waiting or being sent at once; a new one beyond
 *                        it takes the slot of the answer stalled longest ({@link FrameStreams#STALLED_MS}),
 *                        or, when none is stalled, is answered at once with 503 and {@code Retry-After: 1}
 * @param threads         HTTP worker threads (besides the acceptor and the selector)
 */
record ServerLimits(long headerTimeoutMs, long bodyTimeoutMs, long writeTimeoutMs, int maxHeaderBytes,
        int maxBodyBytes, int maxConnections, int maxFrameStreams, int threads) {

    /** Default header, body and write timeouts (ms). */
    static final int HEADER_TIMEOUT_MS = 5000;
    static final int BODY_TIMEOUT_MS = 5000;
    static final int WRITE_TIMEOUT_MS = 5000;
    /** Default limits on the request head and body (bytes). */
    static final int MAX_HEADER_BYTES = 8192;
    static final int MAX_BODY_BYTES = 4096;
    /** Default caps. */
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_FRAME_STREAMS = 16;
    static final int THREADS = 8;

    /** The defaults of {@code serve}. */
    static final ServerLimits DEFAULTS = new ServerLimits(HEADER_TIMEOUT_MS, BODY_TIMEOUT_MS, WRITE_TIMEOUT_MS,
            MAX_HEADER_BYTES, MAX_BODY_BYTES, MAX_CONNECTIONS, MAX_FRAME_STREAMS, THREADS);

    /** The defaults in words (a constant, for {@code serve --help}). */
    static final String DEFAULTS_TEXT = "a request's head (line and headers) must arrive whole within "
            + HEADER_TIMEOUT_MS / 1000 + " s of the connection opening or of its previous answer, and its body within "
            + BODY_TIMEOUT_MS / 1000 + " s, at " + BodyReader.MIN_BYTES_PER_SECOND + " bytes/s or more after its first half second; "
            + "a client that reads nothing of its answer for " + WRITE_TIMEOUT_MS / 1000 + " s, or has not read a frame whole "
            + "after " + WRITE_TIMEOUT_MS / 1000 + " s, is dropped, and a frame request takes the slot of an answer left unread "
            + "for " + FrameStreams.STALLED_MS + " ms; heads of at most " + MAX_HEADER_BYTES / 1024 + " KB (else 431), bodies of at most "
            + MAX_BODY_BYTES / 1024 + " KB (else 413); " + THREADS + " HTTP threads, none of them held by a waiting "
            + "client.";

    /** Highest value accepted for {@code --max-connections}. */
    static final int MAX_CONNECTIONS_LIMIT = 10_000;
    /** Highest value accepted for {@code --max-frame-streams}. */
    static final int MAX_FRAME_STREAMS_LIMIT = 256;

    ServerLimits {
        if (headerTimeoutMs < 100 || bodyTimeoutMs < 100) {
            throw new IllegalArgumentException("the header and body timeouts must be at least 100 ms");
        }
        if (writeTimeoutMs < FrameStreams.FRAME_WAIT_MS + 500) {
            // it is also the connection's idle timeout, which must outlast a frame long-poll's wait
            throw new IllegalArgumentException("the write timeout must be at least " + (FrameStreams.FRAME_WAIT_MS + 500)
                    + " ms");
        }
        if (maxHeaderBytes < 1024 || maxBodyBytes < 1) {
            throw new IllegalArgumentException("the header limit must be at least 1024 bytes and the body limit positive");
        }
        if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS_LIMIT) {
            throw new IllegalArgumentException("--max-connections = " + maxConnections
                    + " is out of range; valid range is 1.." + MAX_CONNECTIONS_LIMIT);
        }
        if (maxFrameStreams < 1 || maxFrameStreams > MAX_FRAME_STREAMS_LIMIT) {
            throw new IllegalArgumentException("--max-frame-streams = " + maxFrameStreams
                    + " is out of range; valid range is 1.." + MAX_FRAME_STREAMS_LIMIT);
        }
        if (threads < 2) {
            throw new IllegalArgumentException("at least 2 HTTP threads");
        }
    }

    /** These limits with other timeouts (milliseconds). */
    ServerLimits withTimeouts(long header, long body, long write) {
        return new ServerLimits(header, body, write, maxHeaderBytes, maxBodyBytes, maxConnections, maxFrameStreams,
                threads);
    }

    /** These limits with another connection cap. */
    ServerLimits withMaxConnections(int n) {
        return new ServerLimits(headerTimeoutMs, bodyTimeoutMs, writeTimeoutMs, maxHeaderBytes, maxBodyBytes, n,
                maxFrameStreams, threads);
    }

    /** These limits with another cap on frame streams. */
    ServerLimits withMaxFrameStreams(int n) {
        return new ServerLimits(headerTimeoutMs, bodyTimeoutMs, writeTimeoutMs, maxHeaderBytes, maxBodyBytes,
                maxConnections, n, threads);
    }
}
